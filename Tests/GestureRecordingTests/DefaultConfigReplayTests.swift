import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// Replays a recording through the default config, the same way `gestured replay` does.
func replayWithDefaultConfig(_ name: String, explains: Bool = false, touches: Bool = false) throws -> [EngineOutput] {
    let recordings = try RecordingLoader.load(path: Corpus.path(name))
    var engine = GestureEngine(configuration: ConfigurationLoader.loadDefault().engine)
    engine.explains = explains
    var pipeline = GesturePipeline(engine: engine, emitsAllTouches: touches)
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

/// The pan-like gestures (pan, edge-pan) of a replay: id, fingers, and the translation path.
struct Stroke {
    var gesture: String
    var fingers: Int
    var path: [Point]
    var minY: Double { path.map(\.y).min() ?? 0 }
    var maxY: Double { path.map(\.y).max() ?? 0 }
    var minX: Double { path.map(\.x).min() ?? 0 }
    var maxX: Double { path.map(\.x).max() ?? 0 }
    var end: Point { path.last ?? .zero }
}

func strokes(_ events: [GestureEvent]) -> [Stroke] {
    var result: [Stroke] = []
    var open: [String: Int] = [:]
    for g in events where g.kind == .pan || g.kind == .edgePan {
        if g.state == .began {
            open[g.gesture] = result.count
            result.append(Stroke(gesture: g.gesture, fingers: g.fingers, path: []))
        }
        guard let index = open[g.gesture], let t = g.translation else { continue }
        result[index].path.append(t)
        result[index].fingers = max(result[index].fingers, g.fingers)
    }
    return result
}

/// Issue 3's acceptance on the shared recordings, with the embedded default config.
/// Surfaces are the devices' own areas in mm (no surface config), so translations are in mm.
@Suite struct DefaultConfigOnRecordings {
    @Test(arguments: ["Wacom ISDv4 E6 Finger.single-tap-center.events",
                      "eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap.events",
                      "AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events",
                      "SynPS2 Synaptics TouchPad.fdo48777-reproducer.events"])
    func oneFingerTapIsOneTap(file: String) throws {
        let g = gestures(try replayWithDefaultConfig(file))
        #expect(g.map(\.gesture) == ["tap"])
        #expect(g.first?.taps == 1)
        #expect(g.first?.fingers == 1)
        #expect(g.first?.state == .recognized)
    }

    @Test(arguments: ["Wacom ISDv4 E6 Finger.double-tap-center.events", "AlpsPS2 ALPS GlidePoint.double-tap.events"])
    func oneFingerDoubleTapIsOneDoubleTapAndNoSingleTap(file: String) throws {
        let g = gestures(try replayWithDefaultConfig(file))
        #expect(g.count == 1)
        #expect(g.first?.gesture == "double-tap")
        #expect(g.first?.taps == 2)
        #expect(!g.contains { $0.gesture == "tap" })
    }

    @Test func atmelFastTapsAddUpToNineTaps() throws {
        let g = gestures(try replayWithDefaultConfig("Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(g.allSatisfy { $0.kind == .tap && $0.fingers == 1 })
        #expect(g.reduce(0) { $0 + ($1.taps ?? 0) } == 9)
    }

    @Test(arguments: [("Wacom ISDv4 E6 Finger.2fg-tap.events", 2),
                      ("Wacom ISDv4 E6 Finger.2fg-double-tap.events", 2),  // holds one two-finger tap (see README)
                      ("CyPS2 Cypress Trackpad.two_finger_tap.events", 2),
                      ("CyPS2 Cypress Trackpad.three_finger_tap.events", 3)])
    func multiFingerTaps(file: String, fingers: Int) throws {
        let g = gestures(try replayWithDefaultConfig(file))
        #expect(g.count == 1)
        #expect(g.first?.kind == .tap)
        #expect(g.first?.fingers == fingers)
        #expect(g.first?.taps == 1)
    }

    enum Movement: Sendable {
        case down, up, right, upAndDown, southEast, horizontal, vertical, any
    }

    /// Every scroll / drag / top-swipe recording gives a pan (or edge pan) with the right finger count
    /// and direction. y grows downward.
    @Test(arguments: [
        ("Atmel maXTouch Touchscreen.1-finger-drag-up-down.events", 1, Movement.upAndDown),
        ("ELAN CANDO Windows7.1-finger-drag-up-down.events", 1, .upAndDown),
        ("EP0430M09.1-finger-drag-up-down.events", 1, .upAndDown),
        // "scroll down" on a touchscreen: the fingers push the content up, y decreases (checked in the raw events).
        ("EP0430M09.2-finger-scroll-down.events", 2, .up),
        ("N-Trig MultiTouch.1-finger-drag-NW-SE.events", 1, .southEast),
        ("Wacom ISDv4 E6 Finger.single-center-scroll.events", 1, .down),
        ("Wacom ISDv4 E6 Finger.double-center-scroll.events", 2, .down),
        ("Wacom ISDv4 E6 Finger.single-top-swipe.events", 1, .right),
        ("Wacom ISDv4 E6 Finger.double-top-swipe.events", 2, .right),
        ("Wacom ISDv4 E6 Finger.double-center-circle.events", 2, .any),
        ("AlpsPS2 ALPS GlidePoint.right-edge-scroll.events", 1, .up),
        ("SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events", 1, .down),
        ("SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events", 2, .horizontal),
        // Despite its name this file holds a single finger (max contacts 1, BTN_TOOL_FINGER only).
        ("SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events", 1, .vertical),
        ("SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events", 2, .vertical),
    ] as [(String, Int, Movement)])
    func scrollsAndDragsArePans(file: String, fingers: Int, movement: Movement) throws {
        let all = strokes(gestures(try replayWithDefaultConfig(file)))
        let matching = all.filter { $0.fingers == fingers }
        try #require(!matching.isEmpty, "no pan with \(fingers) finger(s): \(all.map { ($0.gesture, $0.fingers) })")
        let s = matching.max { ($0.maxY - $0.minY) + ($0.maxX - $0.minX) < ($1.maxY - $1.minY) + ($1.maxX - $1.minX) }!
        switch movement {
        case .down: #expect(s.end.y > 10 && s.end.y > abs(s.end.x))
        case .up: #expect(s.end.y < -10 && -s.end.y > abs(s.end.x))
        case .right: #expect(s.end.x > 10 && s.end.x > abs(s.end.y))
        case .upAndDown: #expect(s.minY < -5 || s.maxY > 5); #expect(s.maxY - s.minY > 10)
        case .southEast: #expect(s.end.x > 10 && s.end.y > 10)
        case .horizontal: #expect(s.maxX - s.minX > 2 * (s.maxY - s.minY) && s.maxX - s.minX > 5)
        case .vertical: #expect(s.maxY - s.minY > 2 * (s.maxX - s.minX) && s.maxY - s.minY > 5)
        case .any: #expect(s.path.count > 10)
        }
    }

    @Test func atmelFourFingerDragDownIsFourFingersMovingDown() throws {
        let g = gestures(try replayWithDefaultConfig("Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let swipe = g.first { $0.kind == .swipe }
        #expect(swipe?.fingers == 4)
        #expect(swipe?.direction == .down)
        #expect((swipe?.translation?.y ?? 0) > 0)
    }

    /// Every recording: published states follow UIKit's transitions, and every touch that began
    /// is ended or cancelled.
    @Test(arguments: Corpus.recordingPaths.map { String($0.split(separator: "/").last!) })
    func everyRecordingIsLegalAndClosesItsTouches(file: String) throws {
        guard let outputs = try? replayWithDefaultConfig(file, touches: true) else {
            #expect(file == "Wacom Cintiq 22HDT Finger.events", "only the empty recording may fail to load")
            return
        }
        var state: [String: GestureState] = [:]
        for g in gestures(outputs) {
            let previous = state[g.gesture] ?? .possible
            switch (g.kind.isDiscrete, previous, g.state) {
            case (true, .possible, .recognized): state[g.gesture] = .possible
            case (false, .possible, .began): state[g.gesture] = .began
            case (false, .began, .changed), (false, .changed, .changed): state[g.gesture] = .changed
            case (false, .began, .ended), (false, .changed, .ended),
                 (false, .began, .cancelled), (false, .changed, .cancelled): state[g.gesture] = .possible
            default: Issue.record("\(file): \(g.gesture) went \(previous) -> \(g.state) at \(g.time)")
            }
        }
        #expect(state.values.allSatisfy { $0 == .possible }, "left in progress: \(state)")
        var open: Set<TouchID> = []
        for case .touch(let t) in outputs {
            if t.phase == .began { open.insert(t.id) }
            if t.phase.isTerminal { #expect(open.remove(t.id) != nil, "\(file): touch \(t.id) ended twice") }
        }
        #expect(open.isEmpty, "\(file): touches left open: \(open)")
    }
}

/// Semi-MT touchpads (INPUT_PROP_SEMI_MT) report the bounding box of the fingers: its diagonal turns
/// when fingers cross, so rotation must not begin on them (libinput does not trust those angles either).
@Suite struct SemiMultitouchDevices {
    @Test func cypressThreeFingerPressIsNoRotation() throws {
        let outputs = try replayWithDefaultConfig("CyPS2 Cypress Trackpad.three_finger_press.events", explains: true)
        #expect(!gestures(outputs).contains { $0.kind == .rotation })
        let reasons = outputs.compactMap { output -> String? in
            if case .explain(let e) = output, e.gesture == "rotate", e.to == .failed { return e.reason }
            return nil
        }
        #expect(reasons.first?.hasPrefix("semi-MT device") == true, "\(reasons)")
    }

    @Test func aTurnOnAFullMultitouchDeviceStillRotates() {
        let config = EngineConfiguration(root: RegionSpec(id: "screen"),
                                         recognizers: [RecognizerSpec(id: "rotate", kind: .rotation, region: "screen")])
        func run(semiMT: Bool) -> [GestureEvent] {
            var engine = GestureEngine(configuration: config)
            let device = DeviceRef(id: 0, name: "pad", kind: .touchpad, isSemiMultitouch: semiMT)
            var out: [EngineOutput] = []
            func frame(_ ms: Int64, _ angle: Double, _ phase: TouchPhase) {
                let c = Point(x: 50, y: 50)
                let offset = Point(x: 10 * cos(angle), y: 10 * sin(angle))
                let touches = [c + offset, c - offset].enumerated().map { i, p in
                    Touch(id: TouchID(UInt64(i + 1)), phase: phase, location: p, physicalLocation: p,
                          time: Timestamp(microseconds: ms * 1000), device: device)
                }
                out += engine.process(TouchFrame(device: device, time: Timestamp(microseconds: ms * 1000), touches: touches,
                                                 surfaceSize: Point(x: 100, y: 100), unitsPerMM: Point(x: 1, y: 1)))
            }
            frame(0, 0, .began)
            for step in 1...10 { frame(Int64(step * 10), Double(step) * 0.035, .moved) }
            frame(120, 0.35, .ended)
            return gestures(out)
        }
        #expect(run(semiMT: false).map(\.state) .contains(.began))
        #expect(run(semiMT: true).isEmpty)
    }
}
