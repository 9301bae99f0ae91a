@testable import GestureCore

/// A tiny scenario language over a virtual clock: fingers go down, move and lift at times in ms, at
/// positions in mm on a 100 × 100 mm surface where 1 surface unit = 1 mm. Every frame carries every
/// finger on the surface (unchanged ones as stationary), like the input layer's frames.
struct Scenario {
    enum Change {
        case down(Int, Double, Double)
        case move(Int, Double, Double)
        case up(Int)
        case cancel(Int)
    }

    var engine: GestureEngine
    var device = DeviceRef(id: 1, name: "test-screen", kind: .touchscreen)
    var surface = Point(x: 100, y: 100)
    private var active: [(finger: Int, id: TouchID, at: Point)] = []
    private var nextID: UInt64 = 1
    private(set) var outputs: [EngineOutput] = []

    init(_ configuration: EngineConfiguration, explains: Bool = true) {
        engine = GestureEngine(configuration: configuration)
        engine.explains = explains
    }

    static func ms(_ t: Double) -> Timestamp { Timestamp(microseconds: Int64(t * 1000)) }

    mutating func frame(_ t: Double, _ changes: Change...) { frame(t, changes) }

    mutating func frame(_ t: Double, _ changes: [Change]) {
        let time = Scenario.ms(t)
        var touches: [Touch] = []
        var changed: Set<Int> = []
        var ending: [Int] = []
        for c in changes {
            switch c {
            case .down(let f, let x, let y):
                let id = TouchID(nextID)
                nextID += 1
                active.append((f, id, Point(x: x, y: y)))
                touches.append(Touch(id: id, phase: .began, location: Point(x: x, y: y),
                                     physicalLocation: Point(x: x, y: y), time: time, device: device))
                changed.insert(f)
            case .move(let f, let x, let y):
                guard let k = active.firstIndex(where: { $0.finger == f }) else { continue }
                let old = active[k].at
                let new = Point(x: x, y: y)
                active[k].at = new
                touches.append(Touch(id: active[k].id, phase: .moved, location: new, previousLocation: old,
                                     physicalLocation: new, previousPhysicalLocation: old, time: time, device: device))
                changed.insert(f)
            case .up(let f), .cancel(let f):
                guard let k = active.firstIndex(where: { $0.finger == f }) else { continue }
                let phase: TouchPhase
                if case .up = c { phase = .ended } else { phase = .cancelled }
                touches.append(Touch(id: active[k].id, phase: phase, location: active[k].at,
                                     physicalLocation: active[k].at, time: time, device: device))
                changed.insert(f)
                ending.append(f)
            }
        }
        for a in active where !changed.contains(a.finger) {
            touches.append(Touch(id: a.id, phase: .stationary, location: a.at, physicalLocation: a.at, time: time,
                                 device: device))
        }
        active.removeAll { ending.contains($0.finger) }
        outputs += engine.process(TouchFrame(device: device, time: time, touches: touches, surfaceSize: surface,
                                             unitsPerMM: Point(x: 1, y: 1)))
    }

    /// A straight stroke of one finger from its current point, in `steps` frames ending at `t`.
    mutating func stroke(_ f: Int, from t0: Double, to t: Double, by d: Point, steps: Int) {
        guard let k = active.firstIndex(where: { $0.finger == f }) else { return }
        let start = active[k].at
        for i in 1...steps {
            let frac = Double(i) / Double(steps)
            let p = start + d * frac
            frame(t0 + (t - t0) * frac, .move(f, p.x, p.y))
        }
    }

    mutating func advance(_ t: Double) { outputs += engine.advance(to: Scenario.ms(t)) }

    /// Runs time past every pending deadline (end of input).
    mutating func finish() {
        var guardCount = 0
        while let d = engine.nextDeadline, guardCount < 1000 {
            outputs += engine.advance(to: d)
            guardCount += 1
        }
    }

    var gestures: [GestureEvent] {
        outputs.compactMap { if case .gesture(let g) = $0 { g } else { nil } }
    }

    /// "state@ms" for every event of one gesture id.
    func log(_ gesture: String) -> [String] {
        gestures.filter { $0.gesture == gesture }.map { "\($0.state.rawValue)@\($0.time.microseconds / 1000)" }
    }

    func events(_ gesture: String) -> [GestureEvent] { gestures.filter { $0.gesture == gesture } }

    /// "phase@ms" of a region's touch stream.
    func stream(_ region: String) -> [String] {
        touchEvents(region).map { "\($0.phase.rawValue)@\($0.time.microseconds / 1000)" }
    }

    func touchEvents(_ region: String) -> [TouchEvent] {
        outputs.compactMap { if case .touch(let t) = $0, t.region == region { t } else { nil } }
    }

    var explanations: [ExplainEvent] {
        outputs.compactMap { if case .explain(let e) = $0 { e } else { nil } }
    }

    /// The explained transitions of one gesture ("received touch" delivery lines left out).
    func explain(_ gesture: String) -> [String] {
        explanations.filter { $0.gesture == gesture && !$0.reason.hasPrefix("received touch") }
            .map { "\($0.from.rawValue)->\($0.to.rawValue)" }
    }

    /// The "received touch" delivery lines of one gesture.
    func received(_ gesture: String) -> [String] {
        explanations.filter { $0.gesture == gesture && $0.reason.hasPrefix("received touch") }.map(\.reason)
    }

    func reasons(_ gesture: String, to state: GestureState = .failed) -> [String] {
        explanations.filter { $0.gesture == gesture && $0.to == state }.map(\.reason)
    }

    mutating func clear() { outputs.removeAll() }

    /// Every recognizer back in possible, and no refused transition ever.
    var settled: Bool { engine.recognizerStates.allSatisfy { $0 == .possible } && engine.illegalTransitions == 0 }
}

/// P (full surface) containing C (20...80 mm square), C publishing its touches.
func pc(_ recognizers: [RecognizerSpec], child: RegionSpec? = nil) -> EngineConfiguration {
    let c = child ?? RegionSpec(id: "C", frame: RegionFrame(x: .absolute(20), y: .absolute(20), width: .absolute(60),
                                                            height: .absolute(60)), publishesTouches: true)
    return EngineConfiguration(root: RegionSpec(id: "P", children: [c]), recognizers: recognizers)
}

func tap(_ id: String, taps: Int = 1, fingers: Int = 1, region: String = "P", requireToFail: [String] = [],
         cancels: Bool = true, delaysBegan: Bool = false, delaysEnded: Bool = true) -> RecognizerSpec {
    var p = RecognizerParameters()
    p.taps = taps
    p.fingers = fingers
    return RecognizerSpec(id: id, kind: .tap, region: region, parameters: p, requireToFail: requireToFail,
                          cancelsTouches: cancels, delaysTouchesBegan: delaysBegan, delaysTouchesEnded: delaysEnded)
}

func spec(_ id: String, _ kind: RecognizerKind, region: String = "P", requireToFail: [String] = [],
          simultaneousWith: [String] = [], _ configure: (inout RecognizerParameters) -> Void = { _ in }) -> RecognizerSpec {
    var p = RecognizerParameters()
    configure(&p)
    return RecognizerSpec(id: id, kind: kind, region: region, parameters: p, requireToFail: requireToFail,
                          simultaneousWith: simultaneousWith)
}
