import Foundation
import Testing
@testable import GestureDaemon
import GesturePosix
import GestureProtocol

/// Two clients with different filters, live (`gestured run --inject`): each gets exactly the lines of
/// its kind that `gestured replay` prints for the same recording, and nothing else.
@Suite struct FilteredClientsTests {
    /// A tap, then (0.8 s later, after the single tap has resolved) the EP0430M09 one-finger drag.
    static func tapThenDrag(in dir: TempDir) throws -> String {
        let drag = try String(contentsOfFile: Paths.fixture("EP0430M09.1-finger-drag-up-down.events"), encoding: .utf8)
        let lines = drag.split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.prefix { !$0.hasPrefix("E:") }
        var text = header.joined(separator: "\n") + "\n"
        text += """
            E: 0.000001 0003 0039 100
            E: 0.000001 0003 0035 300
            E: 0.000001 0003 0036 300
            E: 0.000001 0001 014a 1
            E: 0.000001 0003 0000 300
            E: 0.000001 0003 0001 300
            E: 0.000001 0000 0000 0
            E: 0.050000 0003 0039 -1
            E: 0.050000 0001 014a 0
            E: 0.050000 0000 0000 0

            """
        for line in lines where line.hasPrefix("E:") {
            let fields = line.split(separator: " ", maxSplits: 2)
            let time = Double(fields[1])! + 0.8
            text += "E: " + String(format: "%.6f", time) + " " + fields[2] + "\n"
        }
        let path = dir.file("tap-then-drag.events")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The lines of one kind, without `time` (live time is the replay's, shifted to the monotonic clock).
    static func comparable(_ lines: [String], kind: String) -> [String] {
        lines.compactMap { line -> String? in
            guard line.contains("\"kind\":\"\(kind)\"") else { return nil }
            return line.replacingOccurrences(of: #""time":[0-9.e+-]+,"#, with: "", options: .regularExpression)
        }
    }

    @Test func eachClientGetsExactlyTheGesturesOfItsFilter() throws {
        let dir = TempDir()
        let recording = try Self.tapThenDrag(in: dir)
        let replay = try runBinary("gestured", ["replay", recording])
        #expect(replay.status == 0, "\(replay.stderr)")
        let expectedLines = replay.stdout.split(separator: "\n").map(String.init)
        let expectedTaps = Self.comparable(expectedLines, kind: "tap")
        let expectedPans = Self.comparable(expectedLines, kind: "pan")
        #expect(expectedTaps.count == 1, "\(expectedLines)")
        #expect(expectedPans.count > 3)

        let daemon = try DaemonProcess(extraArguments: ["--inject", recording, "--inject-when-subscribed"])
        let taps = try daemon.connect()
        let pans = try daemon.connect()
        // Subscribe the pan client first: the tap client's subscription starts the recording.
        #expect(json(try daemon.roundTrip(pans, #"{"request":"subscribe","kinds":["pan"]}"#))["ok"] as? Bool == true)
        #expect(json(try daemon.roundTrip(taps, #"{"request":"subscribe","kinds":["tap"]}"#))["ok"] as? Bool == true)

        var panLines: [String] = []
        while panLines.count < 1000, let line = try pans.readLine(timeout: 10_000) {
            panLines.append(line)
            if line.contains("\"state\":\"ended\"") || line.contains("\"state\":\"cancelled\"") { break }
        }
        // Everything the tap client got until the line stayed quiet for 0.5 s after the drag.
        var tapLines: [String] = []
        while let line = try? taps.readLine(timeout: 500) { tapLines.append(line) }

        #expect(Self.comparable(panLines, kind: "pan") == expectedPans)
        #expect(panLines.count == expectedPans.count, "pan client got other lines: \(panLines)")
        #expect(Self.comparable(tapLines, kind: "tap") == expectedTaps)
        #expect(tapLines.count == expectedTaps.count, "tap client got other lines: \(tapLines)")
    }
}
