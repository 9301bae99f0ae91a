import Foundation
import Testing

/// A running daemon streams a pen's touch lines (hover, touch, hover end) to a subscriber, as
/// `gestured replay --touches` prints them: real binaries over a real socket.
@Suite(.serialized)
struct PenLiveStreamTests {
    static let pen = Paths.corpus("pens/Wacom Cintiq 13HD touch Pen.events")

    /// The phases of the pen's touch lines one subscriber gets while the recording plays.
    func livePhases(touches: String) throws -> [String] {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Self.pen, "--inject-when-subscribed"])
        let client = try daemon.connect()
        let sub = json(try daemon.roundTrip(client, #"{"request":"subscribe","touches":[\#(touches)]}"#))
        #expect(sub["ok"] as? Bool == true)
        var phases: [String] = []
        // The last line the recording makes is the pen leaving range.
        while !phases.contains("hover-ended"), let line = try client.readLine(timeout: 10_000) {
            let object = json(line)
            guard object["type"] as? String == "touch" else { continue }
            #expect(object["kind"] as? String == "pen")
            if let phase = object["phase"] as? String { phases.append(phase) }
        }
        return phases
    }

    @Test(arguments: [#""*""#, #""screen""#])
    func aSubscriberGetsThePensHoverAndTouchLines(touches: String) throws {
        let phases = try livePhases(touches: touches)
        #expect(phases.first == "hovering")
        #expect(phases.filter { $0 == "began" }.count == 2)
        #expect(phases.filter { $0 == "ended" }.count == 2)
        #expect(phases.contains("moved"))
        #expect(phases.last == "hover-ended")
    }
}
