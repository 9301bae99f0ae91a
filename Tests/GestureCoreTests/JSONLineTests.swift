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
        ]
        for (value, text) in cases { #expect(JSONLine.number(value) == text, "\(value)") }
        #expect(JSONLine.number(1e16) == String(1e16))
    }

    @Test func integersAtTheirLimits() {
        var j = JSONLine()
        j.add("min", Int.min)
        j.add("max", Int.max)
        j.add("zero", 0)
        j.add("u", UInt64.max)
        #expect(j.line == #"{"min":-9223372036854775808,"max":9223372036854775807,"zero":0,"u":18446744073709551615}"#)
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
