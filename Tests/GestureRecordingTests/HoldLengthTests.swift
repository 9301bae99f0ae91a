import Foundation
import GestureConfig
@testable import GestureCore
import GestureRecording
import Testing

/// No endless holds (docs/recognizers.md): over every real recording of the corpus, a success held
/// for a recognizer that can decide only on its fingers' motion waits at most the device kind's
/// `holdLimit`, under the default config and with an app's full-screen region holding a rotation and
/// a pinch of its own (the screen's two-finger pan then waits for them: the window keeps its
/// gestures), and with that app's gestures holding forwarded touches back from the desktop.
/// `longestHolds` prints the longest hold of each config (the figure before and after a
/// change to arbitration: `swift test --filter HoldLengthTests 2>&1 | grep 'longest hold'`).
@Suite struct HoldLengthTests {
    /// `forwardedAppRotationAndPinch`: every device forwarded, the app's rotation and pinch taking
    /// their touches from the desktop and holding each touch back while they may take it
    /// (`delays-touches-began`): the desktop's scroll waits for them (docs/forwarding.md).
    enum Setup: String, CaseIterable, Sendable { case defaultConfig, appRotationAndPinch, forwardedAppRotationAndPinch }

    /// The longest hold (ms) replaying `file` under `setup`, and the most it may be.
    static func longestHold(_ file: String, _ setup: Setup, bounded: Bool = true) throws -> (hold: Double, limit: Double) {
        let recordings = try RecordingLoader.load(path: Corpus.path(file))
        var engine = GestureEngine(configuration: ConfigurationLoader.loadDefault().engine)
        engine.boundsHolds = bounded
        if setup != .defaultConfig {
            var specs = [RecognizerSpec(id: "a-turn", kind: .rotation, region: "app"),
                         RecognizerSpec(id: "a-zoom", kind: .pinch, region: "app")]
            if setup == .forwardedAppRotationAndPinch {
                for k in specs.indices {
                    specs[k].claimsForwarded = true
                    specs[k].holdsForwarded = .always
                }
            }
            try engine.attach(RegionSpec(id: "app", frame: .full), under: "screen", recognizers: specs)
        }
        var pipeline = GesturePipeline(engine: engine)
        var limit = 0.0
        for (index, recording) in recordings.enumerated() {
            pipeline.addDevice(recording.description, ref: DeviceRef(id: index, name: recording.description.name,
                                                                     kind: recording.description.kind),
                               surface: SurfaceConfiguration())
            limit = max(limit, EngineLane.holdLimit(for: recording.description.kind))
            if setup == .forwardedAppRotationAndPinch {
                let started = pipeline.startForwarding(device: index)
                #expect(started, "\(file): forwarding")
            }
        }
        var end = Timestamp.zero
        for (index, recording) in recordings.enumerated() {
            for event in recording.events { _ = pipeline.feed(event, device: index) }
            end = max(end, recording.events.last?.time ?? .zero)
        }
        _ = pipeline.finish(at: end)
        #expect(pipeline.engine.illegalTransitions == 0, "\(file)")
        return (pipeline.engine.longestHold, limit)
    }

    @Test(arguments: Corpus.everyRecordingName, Setup.allCases)
    func noHoldLastsLongerThanTheLimit(file: String, setup: Setup) throws {
        let (hold, limit) = try Self.longestHold(file, setup)
        #expect(hold <= limit, "\(file), \(setup): a success held \(hold) ms > \(limit) ms")
    }

    /// Prints the longest hold with holds unbounded (as before issue 56) and bounded, per config.
    @Test func longestHolds() throws {
        for setup in Setup.allCases {
            for bounded in [false, true] {
                var worst = (hold: 0.0, file: "")
                for file in Corpus.everyRecordingName {
                    let (hold, _) = try Self.longestHold(file, setup, bounded: bounded)
                    if hold > worst.hold { worst = (hold, file) }
                }
                print("longest hold, \(setup.rawValue), \(bounded ? "bounded" : "unbounded"): "
                      + "\(Int(worst.hold.rounded())) ms (\(worst.file))")
                if bounded { #expect(worst.hold <= EngineLane.holdLimit(for: .touchscreen), "\(setup): \(worst.file)") }
            }
        }
    }
}
