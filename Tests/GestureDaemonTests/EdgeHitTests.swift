import Foundation
import Testing
import GestureProtocol

/// Every edge of a surface behaves as the left one (issue 49 item 2): a touch at the axis maximum, or
/// inside the 2 % overshoot beyond it, hits the strips and windows that reach the right and bottom
/// edges, as a touch at 0 (or inside the overshoot below it) hits those at the left and top.
/// Through the real `gestured run` and `gesturectl hit-test`.
@Suite(.serialized) struct EdgeHitTests {
    /// No device: hit-test uses a 100 × 100 surface.
    static let config = """
        version: 1
        regions:
          id: screen
          children:
            - { id: left-strip, frame: [0, 0, "10%", "100%"] }
            - { id: right-strip, frame: ["90%", 0, "10%", "100%"] }
            - { id: top-strip, frame: ["20%", 0, "60%", "10%"] }
            - { id: bottom-strip, frame: ["20%", "90%", "60%", "10%"] }
        """

    /// The chain `gesturectl hit-test` prints, as a JSON array (negative numbers are taken as they are).
    static func hit(_ daemon: DaemonProcess, _ x: String, _ y: String, output: String? = nil) throws -> String {
        let arguments = ["hit-test", "--socket", daemon.socketPath, "--format", "json"]
            + (output.map { ["--output", $0] } ?? []) + [x, y]
        let result = try runBinary("gesturectl", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let chain = json(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["chain"] as? [String] ?? ["?"]
        return "[" + chain.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    @Test func theRightAndBottomEdgesAndTheirOvershootHitTheirStripsAsTheLeftAndTopDo() throws {
        let dir = TempDir()
        try Self.config.write(toFile: dir.file("g.yaml"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", dir.file("g.yaml")])
        // The left and top, as they always worked: the edge itself and 1.5 % beyond it.
        #expect(try Self.hit(daemon, "0", "50") == #"["left-strip","screen"]"#)
        #expect(try Self.hit(daemon, "-1.5", "50") == #"["left-strip","screen"]"#)
        #expect(try Self.hit(daemon, "50", "0") == #"["top-strip","screen"]"#)
        #expect(try Self.hit(daemon, "50", "-1.5") == #"["top-strip","screen"]"#)
        // The right and bottom: the axis maximum and 1.5 % beyond it.
        #expect(try Self.hit(daemon, "100", "50") == #"["right-strip","screen"]"#)
        #expect(try Self.hit(daemon, "101.5", "50") == #"["right-strip","screen"]"#)
        #expect(try Self.hit(daemon, "50", "100") == #"["bottom-strip","screen"]"#)
        #expect(try Self.hit(daemon, "50", "101.5") == #"["bottom-strip","screen"]"#)
        // The bottom-right corner: the right strip reaches it (the bottom strip stops at 80 %).
        #expect(try Self.hit(daemon, "100", "100") == #"["right-strip","screen"]"#)
        // Beyond the overshoot nothing is hit, on every side alike.
        #expect(try Self.hit(daemon, "103", "50") == "[]")
        #expect(try Self.hit(daemon, "-3", "50") == "[]")
    }

    @Test func theRightMostAndBottomWindowsOfAnOutputTakeItsFarEdges() throws {
        let daemon = try DaemonProcess()
        let bridge = try daemon.connect()
        // HEADLESS-1, 1280 × 720: a window on each side, each reaching its edge of the output.
        let windows = """
            [{"id":"1","app":"left","output":"HEADLESS-1","x":0,"y":0,"width":640,"height":360,"stack":1},\
            {"id":"2","app":"right","output":"HEADLESS-1","x":640,"y":0,"width":640,"height":360,"stack":2},\
            {"id":"3","app":"bottom","output":"HEADLESS-1","x":0,"y":360,"width":1280,"height":360,"stack":3}]
            """
        let line = #"{"request":"desktop","version":1,"backend":"sway","seat":"seat0","snapshot":1,"part":0,"parts":1,"#
            + #""outputs":[{"name":"HEADLESS-1","x":0,"y":0,"width":1280,"height":720,"scale":1,"transform":"normal"}],"#
            + #""windows":\#(windows)}"#
        #expect(isOK(try bridge.request(line)))
        func first(_ x: String, _ y: String) throws -> String? {
            let text = try Self.hit(daemon, x, y, output: "HEADLESS-1")
            return text.split(separator: "\"").dropFirst().first.map(String.init)
        }
        #expect(try first("0", "100") == "window:1")
        #expect(try first("-5", "100") == "window:1")
        #expect(try first("1280", "100") == "window:2")
        #expect(try first("1285", "100") == "window:2")
        #expect(try first("100", "720") == "window:3")
        #expect(try first("100", "730") == "window:3")
        #expect(try first("1280", "720") == "window:3")
        #expect(try first("1285", "725") == "window:3")
    }
}
