import Foundation
import Testing
import GestureCore
@testable import GestureReport

/// The text format on made-up streams (the real binaries and a real terminal are in GestureDaemonTests).
@Suite struct TextFormatterTests {
    static let origin = Timestamp(seconds: 100)

    static func pan(_ state: GestureState, ms: Double, y: Double, id: String = "two-finger-pan") -> OutputLine {
        .engine(.gesture(GestureEvent(gesture: id, kind: .pan, state: state, time: origin.adding(milliseconds: ms),
                                      device: "Pad", region: "screen", fingers: 2, location: Point(x: 50, y: 40 + y),
                                      translation: Point(x: 0.5, y: y), velocity: Point(x: 1, y: 90))))
    }

    static func lines(_ outputs: [OutputLine], width: Int = 80) -> [String] {
        var formatter = TextFormatter(width: width, origin: origin)
        return outputs.flatMap { formatter.format($0) } + formatter.finish()
    }

    /// A binding's line (`replay --bindings`) names its gesture in full, however long the id; the text
    /// follows two spaces after a long one.
    @Test func aBindingLineNamesItsGestureInFull() {
        var formatter = TextFormatter(width: 80, origin: Self.origin)
        let long = formatter.note("→ keys leftctrl+leftalt+right", id: "three-finger-swipe-left",
                                  time: Self.origin.adding(milliseconds: 300))
        #expect(long == ["   300  three-finger-swipe-left  → keys leftctrl+leftalt+right"])
        let short = formatter.note("→ command x", id: "tap", time: Self.origin.adding(milliseconds: 400))
        #expect(short == ["   400  tap              → command x"])
    }

    @Test func aGestureIsOneAlignedLineWithItsTimeIdKindStateFingersAndValues() {
        let tap = OutputLine.engine(.gesture(GestureEvent(
            gesture: "double-tap", kind: .tap, state: .recognized, time: Self.origin.adding(milliseconds: 232),
            device: "Wacom", region: "screen", fingers: 1, taps: 2, location: Point(x: 132.3, y: 76.5))))
        let out = Self.lines([tap])
        #expect(out == ["-- Wacom",
                        "   232  double-tap       tap        recognized       1  taps 2  at 132,77"])
        // Under the header's columns.
        let header = TextFormatter(width: 80).header
        #expect(header == "    ms  gesture          kind       state      fingers  values")
        #expect(out[1].dropFirst(25).hasPrefix("tap ") && header.dropFirst(25).hasPrefix("kind "))
        #expect(out[1].dropFirst(36).hasPrefix("recognized") && header.dropFirst(36).hasPrefix("state"))
    }

    @Test func aLongRunOfChangedLinesIsSummarisedWithItsCountAndLastValues() {
        var stream = [Self.pan(.began, ms: 100, y: -3)]
        for i in 1...50 { stream.append(Self.pan(.changed, ms: 100 + Double(i) * 8, y: -3 - Double(i))) }
        stream.append(Self.pan(.ended, ms: 520, y: -53))
        let out = Self.lines(stream)
        #expect(out.count == 5, "\(out)")
        #expect(out[1].contains("began"))
        #expect(out[2].contains("changed ") && out[2].contains("Δ 0.5,-4.0") && !out[2].contains("×"))
        #expect(out[3].contains("changed ×49") && out[3].contains("Δ 0.5,-53.0") && out[3].hasPrefix("   500"))
        #expect(out[4].contains("ended"))
    }

    @Test func runsOfTwoGesturesAtOnceAreHeldApartAndSummarisedBeforeTheNextLine() {
        var stream: [OutputLine] = [Self.pan(.began, ms: 0, y: 0, id: "a"), Self.pan(.began, ms: 0, y: 0, id: "b")]
        for i in 1...10 {
            stream.append(Self.pan(.changed, ms: Double(i), y: Double(i), id: "a"))
            stream.append(Self.pan(.changed, ms: Double(i), y: Double(-i), id: "b"))
        }
        stream.append(Self.pan(.ended, ms: 11, y: 10, id: "a"))
        let out = Self.lines(stream)
        // a: began, changed, changed ×9, ended; b: began, changed, and its ×9 summary (at 10 ms)
        // before a's end (at 11 ms): times never go backwards.
        #expect(out.filter { $0.contains(" a ") }.count == 4, "\(out)")
        let summaryB = out.firstIndex { $0.contains(" b ") && $0.contains("changed ×9") && $0.contains("-10.0") }
        let endA = out.firstIndex { $0.contains(" a ") && $0.contains("ended") }
        #expect(summaryB != nil && endA != nil && summaryB! < endA!, "\(out)")
    }

    /// Every line's time, in the order printed.
    static func times(_ lines: [String]) -> [Int] { lines.compactMap { Int($0.prefix(6).trimmingCharacters(in: .whitespaces)) } }

    @Test func timesNeverGoBackwardsAndExplainAndGestureRunsCountAlike() {
        func why(_ ms: Double, _ from: GestureState, _ to: GestureState, _ reason: String) -> OutputLine {
            .engine(.explain(ExplainEvent(gesture: "two-finger-pan", region: "screen", from: from, to: to,
                                          time: Self.origin.adding(milliseconds: ms), reason: reason)))
        }
        // As the engine emits them: each explain line just before its gesture line.
        var stream = [why(0, .possible, .began, "moved 4.6 mm >= 3 mm"), Self.pan(.began, ms: 0, y: -3)]
        stream += [why(8, .began, .changed, "moved"), Self.pan(.changed, ms: 8, y: -4)]
        for i in 2...20 {
            stream += [why(Double(i) * 8, .changed, .changed, "moved"), Self.pan(.changed, ms: Double(i) * 8, y: -3 - Double(i))]
        }
        stream += [why(200, .changed, .ended, "lifted"), Self.pan(.ended, ms: 200, y: -30)]
        let out = Self.lines(stream)
        let times = Self.times(out)
        #expect(times == times.sorted(), "\(out)")
        // 20 changed lines each: the first, then "×19", in both.
        #expect(out.contains { $0.contains("changed ×19: moved") }, "\(out)")
        #expect(out.contains { $0.contains("pan        changed ×19") }, "\(out)")
    }

    @Test func aDeviceHeaderStandsOnlyAboveLinesOfItsDevice() {
        func pan(_ device: String, _ state: GestureState, _ ms: Double) -> OutputLine {
            .engine(.gesture(GestureEvent(gesture: "pan", kind: .pan, state: state, time: Self.origin.adding(milliseconds: ms),
                                          device: device, region: "screen", fingers: 1, translation: Point(x: 0, y: ms))))
        }
        // Two devices whose pans overlap: their changed lines interleave and are held back.
        var stream = [pan("A", .began, 0), pan("B", .began, 1)]
        for i in 1...20 {
            stream += [pan("A", .changed, Double(i) * 10), pan("B", .changed, Double(i) * 10 + 1)]
        }
        stream += [pan("A", .ended, 300), pan("B", .ended, 301)]
        let out = Self.lines(stream)
        for (i, line) in out.enumerated() where line.hasPrefix("-- ") {
            #expect(i + 1 < out.count && !out[i + 1].hasPrefix("-- "), "a header with nothing under it: \(out)")
        }
    }

    @Test func repeatedExplainLinesAreSummarisedToo() {
        func why(_ ms: Double, _ from: GestureState, _ to: GestureState, _ reason: String) -> OutputLine {
            .engine(.explain(ExplainEvent(gesture: "pan", region: "screen", from: from, to: to,
                                          time: Self.origin.adding(milliseconds: ms), reason: reason)))
        }
        var stream = [why(0, .possible, .began, "moved 3.2 mm >= 3 mm")]
        for i in 1...30 { stream.append(why(Double(i) * 8, .changed, .changed, "moved")) }
        stream.append(why(300, .changed, .ended, "lifted"))
        let out = Self.lines(stream)
        #expect(out == ["     0  pan              began: moved 3.2 mm >= 3 mm",
                        "     8  pan              changed: moved",
                        "   240  pan              changed ×29: moved",
                        "   300  pan              ended: lifted"], "\(out)")
        // The first changed line comes from began, the rest from changed: one run all the same.
        var fromBegan = stream
        fromBegan[1] = why(8, .began, .changed, "moved")
        #expect(Self.lines(fromBegan) == out)
    }

    @Test func noLineIsWiderThanTheWidthAndExplainReasonsWrapInsteadOfBeingCut() {
        let reason = "required a-long-recognizer-name to fail, which recognized after all the waiting we did"
        let stream: [OutputLine] = [
            .engine(.explain(ExplainEvent(gesture: "tap", region: "screen", from: .possible, to: .failed,
                                          time: Self.origin.adding(milliseconds: 1_234_567), reason: reason))),
            .engine(.gesture(GestureEvent(gesture: "an-id-much-longer-than-sixteen", kind: .longPress, state: .cancelled,
                                          time: Self.origin.adding(milliseconds: 99_999_999), device: "D", region: "r",
                                          fingers: 10, location: Point(x: 123_456.7, y: -98_765.4),
                                          velocity: Point(x: 1e9, y: -1e9)))),
            .engine(.touch(TouchEvent(phase: .moved, id: TouchID(123_456), location: Point(x: 1, y: 2), region: "a-region",
                                      tapCount: 3, time: Self.origin, device: "D"))),
            .dropped(3), .error(String(repeating: "long message ", count: 20)),
            .other(type: "hello", text: String(repeating: "x", count: 200)),
        ]
        for width in [80, 64, 60] {
            let out = Self.lines(stream, width: width)
            for line in out { #expect(line.unicodeScalars.count <= width, "\(width): \(line)") }
            let joined = out.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(joined.contains(reason), "width \(width): \(out)")
        }
    }

    @Test func jsonLinesAreReadBackAsTheEngineValues() {
        let event = GestureEvent(gesture: "swipe-3", kind: .swipe, state: .recognized, time: Timestamp(microseconds: 1_500_000),
                                 device: "Atmel", region: "screen", fingers: 3, direction: .down,
                                 location: Point(x: 27.4, y: 25.9), translation: Point(x: 0.6, y: 10.3),
                                 velocity: Point(x: 2.8, y: 55.5))
        #expect(OutputLine(jsonLine: event.jsonLine) == .engine(.gesture(event)))
        #expect(OutputLine(jsonLine: #"{"type":"dropped","count":4}"#) == .dropped(4))
        #expect(OutputLine(jsonLine: "not json") == .other(type: nil, text: "not json"))
        let response = #"{"type":"response","request":"status","ok":true,"id":"s1"}"#
        #expect(OutputLine(jsonLine: response) == .other(type: "response", text: response))
    }

    /// A forwarding verdict is a reason: printed whole, wrapped to the width, never cut.
    @Test func aForwardingVerdictIsPrintedWholeWrapped() {
        var formatter = TextFormatter(width: 40, origin: Self.origin)
        let gesture = InternedString("three-finger-back")
        let verdict = TouchForwarding(touch: TouchID(3), device: 1, deviceName: "Pad",
                                      verdict: .hold, reason: .makesFingerCount(gesture: gesture, fingers: 3),
                                      time: Self.origin.adding(milliseconds: 5))
        let lines = formatter.format(.engine(.forwarding(verdict)))
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("it makes 3 fingers, and three-finger-back may still take them"),
                "\(lines)")
    }
}
