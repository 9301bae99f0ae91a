import Foundation
import Testing
import GestureProtocol
import GestureDaemon

/// Recordings and helpers for the tests of regions attached by clients (docs/protocol.md, "Apps").
enum AppFixtures {
    /// One one-finger tap at (126.9, 71) mm (the surface is the device's area in mm: no size set).
    static let tap = Paths.fixture("Wacom ISDv4 E6 Finger.single-tap-center.events")
    /// One finger moving right from (15, 12) to (267, 10) mm in about 1.1 s.
    static let rightwardStroke = Paths.fixture("Wacom ISDv4 E6 Finger.single-top-swipe.events")
    /// One finger dragging up and down for 1.4 s (a pan begins ~0.1 s in).
    static let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")
    /// A frame containing the tap and one that does not.
    static let aroundTap = "[100, 50, 60, 40]"

    /// A config with no gestures of its own, so an attached pan or swipe has no rival on the root
    /// (the default config's one-finger `pan` would begin as early and can win the tie).
    static func noGestures(in dir: TempDir) throws -> String {
        let path = dir.file("gestured.yaml")
        try "version: 1\ngestures: []\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
    static let awayFromTap = "[0, 0, 50, 50]"
}

extension ControlClient {
    /// Lines until one satisfies `stop` (included) or `timeout` seconds pass.
    func lines(until stop: ([String: Any]) -> Bool, timeout: Double = 15) throws -> [[String: Any]] {
        var out: [[String: Any]] = []
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let left = Int32(max(1, end.timeIntervalSinceNow * 1000))
            guard let line = try readLine(timeout: left) else { break }
            let object = json(line)
            out.append(object)
            if stop(object) { break }
        }
        return out
    }

    /// Sends a request and returns its reply, skipping streamed lines (kept in `skipped`).
    func request(_ line: String, skipped: inout [[String: Any]]) throws -> [String: Any] {
        try send(line)
        let lines = try self.lines(until: { $0["type"] as? String == "response" || $0["type"] as? String == "error" },
                                   timeout: 5)
        skipped += lines.dropLast()
        return lines.last ?? [:]
    }

    func request(_ line: String) throws -> [String: Any] {
        var skipped: [[String: Any]] = []
        return try request(line, skipped: &skipped)
    }
}

/// An attach request for one region with gestures (JSON text pieces).
func attachLine(region: String, frame: String, gestures: String, parent: String = "screen", extra: String = "") -> String {
    #"{"request":"attach","parent":"\#(parent)","regions":{"id":"\#(region)","frame":\#(frame)\#(extra)},"gestures":\#(gestures)}"#
}

func isOK(_ reply: [String: Any]) -> Bool { reply["ok"] as? Bool == true }

func gestureLines(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["type"] as? String == "gesture" } }
