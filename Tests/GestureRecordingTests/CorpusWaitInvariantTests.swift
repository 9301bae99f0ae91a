import Foundation
import GestureConfig
@testable import GestureCore
import GestureRecording
import Testing

/// The wait invariant (no recognizer waits for one that waits for it; docs/recognizers.md,
/// "Arbitration") on every real recording of the corpus: the default config, with a client's
/// full-screen region holding a pinch of its own (an app's map view under the screen's gestures,
/// whose rotation waits for that pinch), and window rules (a pinch, a rotation, a three-finger swipe) whose
/// window lies beside a window no rule matches. After
/// every event no cycle of waits exists, and no held success is given up at a sequence's end
/// because of one.
@Suite struct CorpusWaitInvariantTests {
    static func configuration() -> EngineConfiguration {
        var configuration = ConfigurationLoader.loadDefault().engine
        var swipe = RecognizerParameters()
        swipe.fingers = 3
        swipe.directions = [.left, .right, .up, .down]
        configuration.windowRules = [WindowRule(id: "rule", match: WindowMatch(app: "app"), gestures: [
            RecognizerSpec(id: "w-zoom", kind: .pinch, region: ""),
            RecognizerSpec(id: "w-turn", kind: .rotation, region: ""),
            RecognizerSpec(id: "w-swipe", kind: .swipe, region: "", parameters: swipe),
        ])]
        return configuration
    }

    static let desktop = Desktop(outputs: [DesktopOutput(name: "O", width: 100, height: 100)], windows: [
        DesktopWindow(id: "1", app: "app", output: "O", x: 0, y: 0, width: 50, height: 100, stack: 1, focused: true),
        DesktopWindow(id: "2", app: "other", output: "O", x: 0, y: 60, width: 50, height: 40, stack: 2),
    ])

    @Test(arguments: Corpus.everyRecordingName)
    func noCycleOfWaits(file: String) throws {
        let recordings = try RecordingLoader.load(path: Corpus.path(file))
        var engine = GestureEngine(configuration: Self.configuration())
        _ = engine.setDesktop(Self.desktop, at: .zero)
        try engine.attach(RegionSpec(id: "app", frame: .full), under: "screen", recognizers: [
                              RecognizerSpec(id: "a-zoom", kind: .pinch, region: "app"),
                          ])
        var pipeline = GesturePipeline(engine: engine)
        for (index, recording) in recordings.enumerated() {
            pipeline.addDevice(recording.description, ref: DeviceRef(id: index, name: recording.description.name,
                                                                     kind: recording.description.kind),
                               surface: SurfaceConfiguration())
        }
        var end = Timestamp.zero
        var cycles: [String] = []
        var outputs: [EngineOutput] = []
        for (index, recording) in recordings.enumerated() {
            for event in recording.events {
                outputs += pipeline.feed(event, device: index)
                if cycles.isEmpty, let cycle = pipeline.engine.waitCycle() {
                    cycles.append("\(event.time): \(cycle)")
                }
            }
            end = max(end, recording.events.last?.time ?? .zero)
        }
        outputs += pipeline.finish(at: end)
        #expect(cycles.isEmpty, "\(file): \(cycles)")
        // UIKit gives the subview its pinch: where the screen alone pinches, the app's full-screen
        // region does, while the fingers are down (no wait on the screen's rotation, which waits
        // for the app's pinch).
        let screen = gestures(try replayWithDefaultConfig(file))
        let app = gestures(outputs)
        func began(_ ids: Set<String>, _ lines: [GestureEvent]) -> Bool {
            lines.contains { ids.contains($0.gesture) && $0.state == .began }
        }
        if began(["pinch"], screen) {
            let appBegan = app.filter { $0.state == .began }.map(\.gesture)
            #expect(began(["a-zoom"], app), "\(file): the screen pinched, the app's region did not: \(appBegan)")
        }
        #expect(pipeline.engine.waitCycles == 0, "\(file)")
        #expect(pipeline.engine.illegalTransitions == 0, "\(file)")
    }
}
