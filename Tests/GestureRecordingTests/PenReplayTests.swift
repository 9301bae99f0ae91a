import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// Real pen recordings (`Tests/Fixtures/pens/`, their README says what each holds).
enum PenCorpus {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pens").path

    static func load(_ name: String) throws -> Recording {
        try #require(try RecordingLoader.load(path: root + "/" + name).first)
    }

    /// Feeds the recordings as devices of one pipeline, events merged by time, with the config's
    /// surfaces; every touch of every frame comes out too (`replay --touches`).
    static func replay(_ recordings: [Recording], config yaml: String) throws -> [EngineOutput] {
        let configuration = try ConfigurationLoader.parse(yaml, file: "pens.yaml")
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: configuration.engine), emitsAllTouches: true)
        for (index, recording) in recordings.enumerated() {
            let d = recording.description
            pipeline.addDevice(d, ref: DeviceRef(id: index, name: d.name, kind: d.kind),
                               surface: configuration.surface(for: d, kind: d.kind))
        }
        var cursors = recordings.map { _ in 0 }
        var outputs: [EngineOutput] = []
        var last = Timestamp.zero
        while true {
            var pick: Int?
            for i in recordings.indices where cursors[i] < recordings[i].events.count {
                let t = recordings[i].events[cursors[i]].time
                if pick == nil || t < recordings[pick!].events[cursors[pick!]].time { pick = i }
            }
            guard let i = pick else { break }
            let event = recordings[i].events[cursors[i]]
            cursors[i] += 1
            last = max(last, event.time)
            outputs += pipeline.feed(event, device: i)
        }
        return outputs + pipeline.finish(at: last)
    }

    /// The DTH2242's header comments say 200 units/mm; its `A:` lines carry no resolution.
    static let dthSurface = """
        surfaces:
          - match: { name: "Wacom DTH2242*" }
            physical-size: [479.2mm, 271.3mm]
        """
    static let penGestures = """
        version: 1
        gestures:
          - id: pen-tap
            kind: tap
            touch-types: [pen]
          - id: pen-stroke
            kind: pan
            touch-types: [pen]
          - id: finger-tap
            kind: tap
          - id: finger-pan
            kind: pan
        """
}

func touchEvents(_ outputs: [EngineOutput]) -> [TouchEvent] {
    outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
}

@Suite struct PenReplayTests {
    /// The Cintiq 13HD pen: two short strokes with pressure and tilt, hovering before, between and after.
    @Test func aRealPenGivesPenTouchesWithPressureTiltAndHover() throws {
        let recording = try PenCorpus.load("Wacom Cintiq 13HD touch Pen.events")
        #expect(recording.description.isPenInterface)
        #expect(recording.description.kind == .touchscreen)
        let touches = touchEvents(try PenCorpus.replay([recording], config: "version: 1\n"))
        #expect(touches.allSatisfy { $0.type == .pen })
        let began = touches.filter { $0.hoverPhase == nil && $0.phase == .began }
        #expect(began.count == 2)
        // The first contact: ABS_PRESSURE 223 of 0…2047; tilt x 16, y 26 at 57 units per radian.
        let first = try #require(began.first)
        #expect(abs(try #require(first.pressure) - 223.0 / 2047) < 1e-6)
        let tx = Foundation.tan(16.0 / 57), ty = Foundation.tan(26.0 / 57)
        #expect(abs(try #require(first.altitudeAngle) - Foundation.atan2(1, (tx * tx + ty * ty).squareRoot())) < 1e-6)
        #expect(abs(try #require(first.azimuthAngle) - Foundation.atan2(ty, tx)) < 1e-6)
        // Hover: lines before the first contact, none while touching, ended once at the end.
        let hovering = touches.filter { $0.hoverPhase == .hovering }
        #expect(touches.first?.hoverPhase == .hovering)
        #expect(hovering.allSatisfy { $0.pressure == nil && $0.distance != nil })
        #expect(touches.filter { $0.hoverPhase == .ended }.count == 1)
        #expect(touches.last?.hoverPhase == .ended)
        var touching = false
        for t in touches {
            if t.hoverPhase == nil { touching = !t.phase.isTerminal }
            if touching { #expect(t.hoverPhase == nil, "a hover line while the pen touches") }
        }
        // With the default config (gestures take fingers only) the pen gives no gesture.
        #expect(gestures(try PenCorpus.replay([recording], config: "version: 1\n")).isEmpty)
    }

    /// The DTH2242 pen: six taps and one stroke become gestures a config binds with `touch-types: [pen]`;
    /// the finger gestures take none of them.
    @Test func aRealPensTapsAndStrokeAreGesturesAConfigCanBind() throws {
        let pen = try PenCorpus.load("Wacom DTH2242 Pen.events")
        let outputs = try PenCorpus.replay([pen], config: PenCorpus.penGestures + "\n" + PenCorpus.dthSurface)
        let g = gestures(outputs)
        #expect(g.filter { $0.gesture == "pen-tap" && $0.state == .recognized }.count == 6)
        let strokes = g.filter { $0.gesture == "pen-stroke" }
        #expect(strokes.filter { $0.state == .began }.count == 1)
        #expect(strokes.filter { $0.state == .ended }.count == 1)
        #expect(strokes.allSatisfy { ($0.pressure ?? 0) > 0 }, "a pen pan carries the pen's pressure")
        #expect(!g.contains { $0.gesture.hasPrefix("finger-") })
        // Only the contacts are touches: 7 BTN_TOUCH presses.
        #expect(touchEvents(outputs).filter { $0.hoverPhase == nil && $0.phase == .began }.count == 7)
    }

    /// Palm rejection: the DTH2242's finger recording (made at another time) played while its pen is in
    /// range (shifted 42.508 s earlier, so that its first finger lands 0.3 s after the pen came for its
    /// longest stay). With the default `while-pen-near`, the fingers resting and tapping meanwhile give
    /// no touch and no gesture; with `off` they do. The pen's taps are unchanged either way.
    @Test func fingersLandingWhileTheSiblingPenIsNearGiveNothing() throws {
        let pen = try PenCorpus.load("Wacom DTH2242 Pen.events")
        var finger = try #require(try RecordingLoader.load(path: Corpus.path("Wacom DTH2242 Finger.events")).first)
        #expect(DeviceSiblings.key(of: pen.description) == DeviceSiblings.key(of: finger.description))
        let shift = Timestamp(microseconds: 42_508_000)
        let penEnd = try #require(pen.events.last?.time)
        finger.events = finger.events.compactMap { e in
            var e = e
            e.time = Timestamp(microseconds: e.time.microseconds - shift.microseconds)
            return e.time <= penEnd ? e : nil
        }
        let fingerSurface = """
              - match: { name: "Wacom DTH2242 Finger" }
                physical-size: [479.2mm, 271.3mm]
                palm-rejection: MODE
            """
        func run(_ mode: String) throws -> [EngineOutput] {
            let yaml = PenCorpus.penGestures + "\nsurfaces:\n" + fingerSurface.replacingOccurrences(of: "MODE", with: mode)
                + "\n" + PenCorpus.dthSurface.replacingOccurrences(of: "surfaces:\n", with: "")
            return try PenCorpus.replay([pen, finger], config: yaml)
        }
        let rejected = try run("while-pen-near")
        let fingerTouches = touchEvents(rejected).filter { $0.device == "Wacom DTH2242 Finger" }
        #expect(fingerTouches.count == 0, "finger lines while the pen is near")
        #expect(!gestures(rejected).contains { $0.gesture.hasPrefix("finger-") })
        #expect(gestures(rejected).filter { $0.gesture == "pen-tap" }.count == 6)

        let open = try run("off")
        #expect(touchEvents(open).filter { $0.device == "Wacom DTH2242 Finger" && $0.phase == .began }.count >= 9)
        #expect(gestures(open).contains { $0.gesture.hasPrefix("finger-") })
        #expect(gestures(open).filter { $0.gesture == "pen-tap" }.count == 6)
    }
}
