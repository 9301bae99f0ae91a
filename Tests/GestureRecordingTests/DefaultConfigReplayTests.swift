import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// Replays a recording through the default config, the same way `gestured replay` does.
func replayWithDefaultConfig(_ name: String, explains: Bool = false) throws -> [EngineOutput] {
    let recordings = try RecordingLoader.load(path: Corpus.path(name))
    var engine = GestureEngine(configuration: ConfigurationLoader.loadDefault().engine)
    engine.explains = explains
    var pipeline = GesturePipeline(engine: engine)
    var end = Timestamp.zero
    for (index, recording) in recordings.enumerated() {
        let ref = DeviceRef(id: index, name: recording.description.name, kind: recording.description.kind)
        pipeline.addDevice(recording.description, ref: ref, surface: SurfaceConfiguration())
    }
    var outputs: [EngineOutput] = []
    for (index, recording) in recordings.enumerated() {
        for event in recording.events { outputs += pipeline.feed(event, device: index) }
        end = max(end, recording.events.last?.time ?? .zero)
    }
    outputs += pipeline.finish(at: end)
    return outputs
}

func gestures(_ outputs: [EngineOutput]) -> [GestureEvent] {
    outputs.compactMap { if case .gesture(let g) = $0 { g } else { nil } }
}

@Suite struct CorpusSurvey {
    @Test func printAll() throws {
        for file in Corpus.recordingPaths {
            let name = String(file.split(separator: "/").last!)
            guard let outputs = try? replayWithDefaultConfig(name) else { print("SURVEY \(name): load error"); continue }
            let g = gestures(outputs)
            let summary = g.filter { $0.state != .changed }.map {
                "\($0.gesture):\($0.state.rawValue)/f\($0.fingers)" + ($0.taps.map { "/t\($0)" } ?? "")
                    + ($0.direction.map { "/\($0.rawValue)" } ?? "")
                    + ($0.translation.map { "/dy=\(Int($0.y)),dx=\(Int($0.x))" } ?? "")
            }
            print("SURVEY \(name): \(summary.joined(separator: " "))")
        }
    }
}

@Suite struct CorpusExplainSurvey {
    @Test(arguments: ["AlpsPS2 ALPS GlidePoint.single-tap.events", "AlpsPS2 ALPS GlidePoint.2-finger-tap.events",
                      "Atmel maXTouch Touchscreen.2-fingers-touch-release.events", "EP0430M09.2-fingers-touch-release.events",
                      "bcm5974.three-finger-click.events", "SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events"])
    func explain(name: String) throws {
        for o in try replayWithDefaultConfig(name, explains: true) {
            if case .explain(let e) = o { print("EXPLAIN \(name.prefix(25)) \(e.time) \(e.gesture) \(e.from.rawValue)->\(e.to.rawValue) \(e.reason)") }
            if case .gesture(let g) = o, g.state != .changed { print("EXPLAIN \(name.prefix(25)) \(g.jsonLine)") }
        }
    }
}
