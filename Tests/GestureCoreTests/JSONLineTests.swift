import Foundation
import GestureCore
import Testing

/// The byte-level JSON writer: exact number and escape formats, and lines any JSON parser reads back.
@Suite struct JSONLineTests {
    @Test func numbersHaveAtMostSixDecimalsAndNoTrailingZeros() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (1.5, "1.5"), (0.000005, "0.000005"),
            (0.0000004, "0"), (123456.789, "123456.789"), (-2.25, "-2.25"), (1330495944.417034, "1330495944.417034"),
            (0.1 + 0.2, "0.3"), (99.9999999, "100"), (.nan, "null"), (.infinity, "null"),
            (0.5, "0.5"), (0.01, "0.01"), (0.000001, "0.000001"), (10.000001, "10.000001"), (9.999999, "9.999999"),
            (100.12, "100.12"), (-0.090909, "-0.090909"), (1234567.000100, "1234567.0001"), (42.10203, "42.10203"),
        ]
        for (value, text) in cases { #expect(JSONLine.number(value) == text, "\(value)") }
        #expect(JSONLine.number(1e16) == String(1e16))
    }

    /// The number writer rounds to millionths by itself (no call into libm): it must agree with
    /// `rounded()` everywhere, halves (away from zero) and the edge of the fallback to `String(v)`.
    @Test func numbersRoundAsRoundedDoes() {
        func reference(_ v: Double) -> String {
            let scaled = (v * 1_000_000).rounded()
            if scaled == 0 { return "0" }
            if abs(scaled) >= 9e15 { return String(v) }
            let magnitude = UInt64(abs(scaled))
            var text = (scaled < 0 ? "-" : "") + String(magnitude / 1_000_000)
            let fraction = magnitude % 1_000_000
            if fraction != 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 6 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                text += "." + digits
            }
            return text
        }
        var values: [Double] = [0.0000005, -0.0000005, 0.0000015, -0.0000025, 2.5e-6, 1.0000005, -1.0000005,
                                8_999_999_999.9999995, 9_000_000_000, -9_000_000_000, 8_999_999_999.999999,
                                -8_999_999_999.999999, 4_503_599_627.3704955, 0.49999999999999994e-6]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            // Halves of a millionth (as near as a double gets), and plain random values.
            let k = Double(Int64.random(in: -9_000_000_000_000...9_000_000_000_000, using: &generator))
            values.append((k + 0.5) / 1_000_000)
            values.append(Double.random(in: -1e4...1e4, using: &generator))
        }
        for value in values { #expect(JSONLine.number(value) == reference(value), "\(value)") }
    }

    @Test func integersAtTheirLimits() {
        var j = JSONLine()
        j.add("min", Int.min)
        j.add("max", Int.max)
        j.add("zero", 0)
        j.add("u", UInt64.max)
        #expect(j.line == #"{"min":-9223372036854775808,"max":9223372036854775807,"zero":0,"u":18446744073709551615}"#)
        // Every digit count, at both ends.
        var power: UInt64 = 1
        for digits in 1...20 {
            #expect(Self.written(power) == "1" + String(repeating: "0", count: digits - 1))
            if digits < 20 { #expect(Self.written(power * 10 - 1) == String(repeating: "9", count: digits)) }
            if digits < 20 { power *= 10 }
        }
        #expect(Self.written(1_234_567_890_123_456_789) == "1234567890123456789")
    }

    static func written(_ v: UInt64) -> String {
        var j = JSONLine()
        j.add("v", v)
        let line = j.line
        return String(line.dropFirst(5).dropLast())
    }

    @Test func stringsAreEscapedAndReadBackExactly() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t cr \r bell \u{07} nul \u{00} é 👍 日本"
        #expect(JSONLine.quoted("a\"b\\c\n\u{01}") == #""a\"b\\c\n\u0001""#)
        var j = JSONLine()
        j.add("s", tricky)
        j.add("p", Point(x: -1.25, y: 3))
        j.add("b", true)
        j.addRaw("raw", "[1,2]")
        let object = try #require(JSONSerialization.jsonObject(with: Data(j.line.utf8)) as? [String: Any])
        #expect(object["s"] as? String == tricky)
        #expect((object["p"] as? [String: Any])?["x"] as? Double == -1.25)
        #expect(object["b"] as? Bool == true)
        #expect(object["raw"] as? [Int] == [1, 2])
    }

    /// Every scalar that needs escaping, and its neighbours, at every position of a string long
    /// enough for the word-at-a-time copy (whole eight-byte words, then a tail).
    @Test func everyEscapeIsFoundAtEveryPosition() {
        func reference(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let scalars: [Unicode.Scalar] = (0..<0x100).map { Unicode.Scalar(UInt8($0)) } + ["\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "日", "👍"]
        let plain = Array("abcdefghijklmnopqrstu ~!")
        for scalar in scalars {
            for position in 0...plain.count {
                var text = String(plain[..<position])
                text.unicodeScalars.append(scalar)
                text += String(plain[position...])
                #expect(JSONLine.quoted(text) == reference(text), "U+\(String(scalar.value, radix: 16)) at \(position)")
            }
        }
    }

    @Test func randomNumbersRoundTripToSixDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double.random(in: -1e9...1e9, using: &generator) / Double([1, 10, 1000, 1e6][Int.random(in: 0..<4)])
            let text = JSONLine.number(value)
            let parsed = try #require(Double(text), "\(text)")
            #expect(abs(parsed - value) <= 0.0000005 + abs(value) * 1e-15, "\(value) -> \(text)")
            #expect(!text.contains("e"))
            if text.contains(".") { #expect(!text.hasSuffix("0"), "\(text)") }
        }
    }
}

/// The gesture and touch lines (written in one buffer) say exactly what the field-by-field writer says.
@Suite struct EventLineTests {
    static func reference(_ g: GestureEvent) -> String {
        var j = JSONLine()
        j.add("type", "gesture")
        j.add("gesture", g.gesture)
        j.add("kind", g.kind.rawValue)
        j.add("state", g.state.rawValue)
        j.add("time", g.time.seconds)
        j.add("device", g.device)
        j.add("region", g.region)
        j.add("fingers", g.fingers)
        if let taps = g.taps { j.add("taps", taps) }
        if let direction = g.direction { j.add("direction", direction.rawValue) }
        if let location = g.location { j.add("location", location) }
        if let translation = g.translation { j.add("translation", translation) }
        if let velocity = g.velocity { j.add("velocity", velocity) }
        if let scale = g.scale { j.add("scale", scale) }
        if let rotation = g.rotation { j.add("rotation", rotation) }
        if let v = g.scalarVelocity { j.add(g.kind == .pinch ? "scaleVelocity" : "rotationVelocity", v) }
        return j.line
    }

    @Test func gestureLinesMatchTheReferenceWriter() throws {
        var generator = SystemRandomNumberGenerator()
        let names = ["tap", "a \"quoted\" \\ name", String(repeating: "\u{01}é👍", count: 40), "", "日本"]
        func number() -> Double { Double.random(in: -1e7...1e7, using: &generator) / 1000 }
        func point() -> Point { Point(x: number(), y: number()) }
        for i in 0..<500 {
            let kind = RecognizerKind.allCases[i % RecognizerKind.allCases.count]
            let g = GestureEvent(
                gesture: names[i % names.count], kind: kind, state: [.began, .changed, .ended, .recognized][i % 4],
                time: Timestamp(microseconds: Int64.random(in: 0...Int64(1e15), using: &generator)),
                device: names[(i + 1) % names.count], region: names[(i + 2) % names.count], fingers: i % 11,
                taps: i % 3 == 0 ? i : nil, direction: i % 4 == 0 ? .left : nil, location: point(),
                translation: i % 2 == 0 ? point() : nil, velocity: i % 2 == 0 ? point() : nil,
                scale: i % 5 == 0 ? number() : nil, rotation: i % 7 == 0 ? number() : nil,
                scalarVelocity: i % 5 == 0 || i % 7 == 0 ? .nan : nil)
            #expect(g.jsonLine == Self.reference(g))
            let object = try #require(JSONSerialization.jsonObject(with: Data(g.jsonLine.utf8)) as? [String: Any])
            #expect(object["gesture"] as? String == g.gesture)
        }
    }

    /// The daemon's writer keeps runs of fields encoded from line to line: whatever repeats or
    /// changes between lines (and touch and explain lines between them), each line is `jsonLine`.
    @Test func streamedLinesAreTheLinesWhateverRepeats() {
        var generator = SystemRandomNumberGenerator()
        let names = ["pan", "two-finger-pan", "a \"quoted\" \\ name", "日本", "x"]
        var writer = StreamedLineWriter()
        var repeats = 0
        var previous: GestureEvent?
        for i in 0..<3000 {
            func pick(_ options: [String]) -> String {
                // The same text in a fresh string now and then, as a reload or a new client would make it.
                let name = options[Int.random(in: 0..<(i % 3 == 0 ? options.count : 2), using: &generator)]
                return Bool.random(using: &generator) ? name : String(decoding: Array(name.utf8), as: UTF8.self)
            }
            let output: EngineOutput
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                output = .touch(TouchEvent(phase: .moved, id: TouchID(UInt64(i)), location: Point(x: 1.5, y: -2),
                                           region: pick(names), tapCount: 1, time: Timestamp(microseconds: Int64(i)),
                                           device: pick(names)))
            case 1:
                output = .explain(ExplainEvent(gesture: pick(names), region: pick(names), from: .possible, to: .failed,
                                               time: Timestamp(microseconds: Int64(i)), reason: "moved \"far\""))
            default:
                var g = GestureEvent(
                    gesture: pick(names), kind: [.pan, .pinch, .swipe][Int.random(in: 0..<3, using: &generator)],
                    state: [.began, .changed, .changed, .ended][Int.random(in: 0..<4, using: &generator)],
                    time: Timestamp(microseconds: Int64(i) * 7919), device: pick(names), region: pick(names),
                    fingers: Int.random(in: 1...3, using: &generator),
                    direction: i % 5 == 0 ? .up : nil, location: Point(x: Double(i) / 7, y: 3),
                    translation: i % 2 == 0 ? Point(x: -1, y: 0.25) : nil, scale: i % 3 == 0 ? 1.5 : nil)
                if let previous, Int.random(in: 0..<3, using: &generator) > 0 {
                    // Mostly the same stream again, its strings sometimes fresh copies of the same text.
                    (g.gesture, g.kind, g.state, g.device, g.region) = (previous.gesture, previous.kind, previous.state, previous.device, previous.region)
                    if Bool.random(using: &generator) { g.device = String(decoding: Array(g.device.utf8), as: UTF8.self) }
                    repeats += 1
                }
                previous = g
                output = .gesture(g)
            }
            let length = writer.write(output)
            let written = String(decoding: writer.buffer[..<length], as: UTF8.self)
            #expect(written == output.jsonLine + "\n", "line \(i)")
        }
        #expect(repeats > 1000)
    }

    @Test func touchLinesMatchTheReferenceWriter() {
        for (i, region) in [nil, "button", "a\nb", String(repeating: "\u{1f}", count: 100)].enumerated() {
            let t = TouchEvent(phase: .moved, id: TouchID(UInt64.max - UInt64(i)), location: Point(x: -0.5, y: 1e6),
                               region: region, tapCount: i + 1, time: Timestamp(microseconds: 1_500_000), device: "pad \"x\"")
            var j = JSONLine()
            j.add("type", "touch")
            j.add("phase", t.phase.rawValue)
            j.add("id", t.id.rawValue)
            j.add("location", t.location)
            if let region { j.add("region", region) }
            j.add("tapCount", t.tapCount)
            j.add("time", t.time.seconds)
            j.add("device", t.device)
            #expect(t.jsonLine == j.line)
        }
    }
}
