import Foundation
import GestureCore
import GestureRecording
import Testing

/// libinput's own touchpad tests (`test/test-gestures.c`, `test/test-touchpad.c`,
/// `test/test-touchpad-tap.c`), ported as evemu recordings on two of litest's touchpad
/// descriptions (Synaptics RMI4, 97 × 53 mm, five slots; Synaptics i2c, 101 × 57 mm, two slots) by
/// `Tests/Fixtures/litest-port/litest-port.py` into `Tests/Fixtures/litest-port/`. Each file's header names the libinput
/// test and line it follows and, on its `# expect:` line, the verdict that test asserts, in
/// gestured's words; replayed with the default config, gestured must give that verdict
/// (docs/recognizers.md, "libinput's tests").
enum LitestPort {
    static let root: String = URL(fileURLWithPath: Corpus.root).deletingLastPathComponent()
        .appendingPathComponent("litest-port").path

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { $0.hasSuffix(".evemu") }.sorted()
    }()

    /// The `# expect:` line of a ported recording, split into words.
    static func expectation(_ file: String) throws -> [String] {
        let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("# expect: ") },
                                "\(file): no `# expect:` line")
        return line.dropFirst("# expect: ".count).split(separator: " ").map(String.init)
    }

    /// Touch-downs and lifts of the recording, in ms from its first event (tracking ids).
    struct Contacts {
        var downs: [Double] = []
        var lifts: [Double] = []
    }

    static func contacts(_ recording: Recording) -> Contacts {
        var c = Contacts()
        let start = recording.events.first?.time.microseconds ?? 0
        for event in recording.events where event.type == .abs && event.code == .absMTTrackingID {
            let ms = Double(event.time.microseconds - start) / 1000
            if event.value < 0 { c.lifts.append(ms) } else { c.downs.append(ms) }
        }
        return c
    }
}

@Suite struct LibinputPort {
    @Test func theGeneratedRecordingsAreThere() throws {
        #expect(LitestPort.files.count >= 40, "\(LitestPort.files.count) recordings in \(LitestPort.root)")
        for file in LitestPort.files {
            let text = try String(contentsOfFile: LitestPort.root + "/" + file, encoding: .utf8)
            // The version line first: without it evemu-device (the VM test) refuses the `A:` lines.
            #expect(text.hasPrefix("# EVEMU 1.3\n# libinput test/test-"), "\(file): the evemu version, then the libinput test it follows")
        }
    }

    @Test(arguments: LitestPort.files)
    func gestuedGivesWhatLibinputAsserts(file: String) throws {
        let verdict = try LitestPort.expectation(file)
        let path = LitestPort.root + "/" + file
        let recording = try #require(try RecordingLoader.load(path: path).first)
        let start = recording.events.first?.time.microseconds ?? 0
        let contacts = LitestPort.contacts(recording)
        let replayed = gestures(try replayWithDefaultConfig(path))
        func ms(_ e: GestureEvent) -> Double { Double(e.time.microseconds - start) / 1000 }
        let summary = replayed.filter { $0.state != .changed }
            .map { "\($0.gesture) \($0.state.rawValue)@\(Int(ms($0)))ms f\($0.fingers)" }
        let context: Comment = "\(file) (expect \(verdict.joined(separator: " "))): \(summary)"
        var expect = verdict
        var g = replayed
        var lifts = contacts.lifts
        var downs = contacts.downs
        if expect.first == "tap-then" {
            // A tap of N fingers first (recognized once, at or after its last lift), then the verdict
            // that follows for the fingers that land after it.
            let fingers = Int(expect[1])!
            let tap = g.first
            #expect(tap?.kind == .tap && tap?.state == .recognized && tap?.taps == 1 && tap?.fingers == fingers, context)
            if let tap { #expect(ms(tap) >= lifts[fingers - 1], "the tap at or after its lift: \(context)") }
            #expect(g.filter { $0.kind == .tap }.count == 1, context)
            g.removeAll { $0.kind == .tap }
            lifts.removeFirst(fingers)
            downs.removeFirst(fingers)
            expect.removeFirst(2)
        }
        let firstLift = try #require(lifts.first)

        /// One continuous gesture: began while every finger was still down, then ended.
        func continuous(_ lines: [GestureEvent]) {
            #expect(lines.first?.state == .began, context)
            #expect(lines.last?.state == .ended, context)
            #expect(lines.filter { $0.state == .began }.count == 1, context)
            if let began = lines.first { #expect(ms(began) < firstLift, "began before the first lift: \(context)") }
        }

        switch expect.first {
        case "scroll":
            #expect(g.allSatisfy { $0.kind == .pan && $0.fingers == 2 }, context)
            continuous(g)
        case "swipe":
            let fingers = Int(expect[1])!
            let direction = SwipeDirection(rawValue: expect[2])!
            #expect(g.allSatisfy { $0.kind == .swipe && $0.fingers == fingers && $0.direction == direction }, context)
            continuous(g)
        case "pinch":
            let fingers = Int(expect[1])!
            #expect(g.allSatisfy { $0.kind == .pinch && $0.fingers == fingers }, context)
            continuous(g)
            let scale = g.last?.scale ?? 1
            #expect(expect[2] == "in" ? scale < 0.9 : scale > 1.1, "scale \(scale): \(context)")
        case "tap":
            let fingers = Int(expect[1])!
            #expect(g.count == 1 && g.allSatisfy { $0.kind == .tap && $0.taps == 1 && $0.fingers == fingers }, context)
        case "double-tap":
            #expect(g.count == 1 && g.allSatisfy { $0.kind == .tap && $0.taps == 2 && $0.fingers == 1 }, context)
        case "drag":
            // The second touch is the drag: a one-finger pan from it to its lift, and no double tap.
            let second = try #require(downs.dropFirst().first)
            let pan = g.filter { $0.kind == .pan }
            #expect(pan.allSatisfy { $0.fingers == 1 }, context)
            #expect(pan.first?.state == .began, context)
            #expect(pan.last?.state == .ended, context)
            if let began = pan.first { #expect(ms(began) >= second && ms(began) < lifts.last!, context) }
            #expect(!g.contains { $0.kind == .tap }, "the tap starts the drag: \(context)")
        case "pointer":
            #expect(g.allSatisfy { ($0.kind == .pan || $0.kind == .edgePan) && $0.fingers == 1 }, context)
            continuous(g)
        case "nothing":
            #expect(g.isEmpty, context)
        default:
            Issue.record("\(file): unknown verdict \(expect)")
        }
    }
}
