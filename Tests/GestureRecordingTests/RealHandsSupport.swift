import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

// Support for the real-hands tests (issue 11): the second fixture folder, the finger limits of the
// loaded config, and a synthetic protocol-B device driven in ms and mm through the same pipeline as
// `gestured replay`, with the default config.

extension Corpus {
    /// The Chromium OS touch firmware test recordings, beside the evemu corpus.
    static let touchMTBRoot: String = URL(fileURLWithPath: root).deletingLastPathComponent()
        .appendingPathComponent("chromiumos-touchmtb").path

    /// Every `.evemu` / `.events` file of `touchMTBRoot`, by name.
    static let touchMTBFiles: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: touchMTBRoot)) ?? []
        return files.filter { $0.hasSuffix(".events") || $0.hasSuffix(".evemu") }.sorted()
    }()

    /// The full path of a Chromium OS recording, nil when `name` is not one.
    static func touchMTBPath(_ name: String) -> String? {
        touchMTBFiles.contains(name) ? touchMTBRoot + "/" + name : nil
    }

    /// The Chromium OS autotest three-finger swipes on real touchpads, beside the evemu corpus.
    static let autotestRoot: String = URL(fileURLWithPath: root).deletingLastPathComponent()
        .appendingPathComponent("chromiumos-autotest").path

    static let autotestFiles: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: autotestRoot)) ?? []
        return files.filter { $0.hasSuffix(".evemu") }.sorted()
    }()

    /// The file names of every recording in the three fixture folders (what `Corpus.path` finds).
    static let everyRecordingName: [String] =
        recordingPaths.map { String($0.split(separator: "/").last!) } + touchMTBFiles + autotestFiles
}

/// How many fingers each recognizer of a configuration may report, read from the configuration:
/// tap, long-press and swipe exactly their `fingers`; pan and edge-pan `min-fingers...max-fingers`;
/// pinch and rotation two.
struct FingerLimits {
    private(set) var allowed: [String: ClosedRange<Int>] = [:]

    init(_ configuration: EngineConfiguration) {
        for spec in configuration.recognizers {
            let p = spec.parameters
            switch spec.kind {
            case .tap, .longPress, .swipe: allowed[spec.id] = p.fingers...p.fingers
            case .pan, .edgePan: allowed[spec.id] = p.minimumFingers...max(p.minimumFingers, p.maximumFingers)
            case .pinch, .rotation: allowed[spec.id] = 2...2
            }
        }
    }

    /// Lines reporting a finger count their recognizer does not allow (or from an unknown recognizer).
    func violations(_ events: [GestureEvent]) -> [String] {
        events.compactMap { g in
            guard let range = allowed[g.gesture] else { return "\(g.gesture): not in the configuration" }
            if range.contains(g.fingers) { return nil }
            return "\(g.gesture) \(g.state.rawValue)@\(g.time.microseconds / 1000)ms fingers \(g.fingers), allowed \(range)"
        }
    }
}

/// `ended` / `cancelled` gesture lines at the origin, a location lost at the end, unless a touch
/// really was at the origin then (a recording whose positions never leave (0, 0), like the eGalax
/// USB controller that reports on axes the frame assembler does not read). Touch outputs
/// (`emitsAllTouches`) tell where touches were; without them every origin end counts.
func endsAtOrigin(_ outputs: [EngineOutput]) -> [String] {
    let origin = Point(x: 0, y: 0)
    var lastLocation: [TouchID: Point] = [:]
    var wrong: [String] = []
    for output in outputs {
        switch output {
        case .touch(let t): lastLocation[t.id] = t.location
        case .gesture(let g) where (g.state == .ended || g.state == .cancelled) && g.location == origin:
            if !lastLocation.values.contains(origin) {
                wrong.append("\(g.gesture) \(g.state.rawValue)@\(g.time.microseconds / 1000)ms at (0, 0)")
            }
        default: break
        }
    }
    return wrong
}

/// The default configuration's engine (`config/default.yaml`), as `gestured` uses it with no file.
let defaultEngineConfiguration: EngineConfiguration = ConfigurationLoader.loadDefault().engine

/// A synthetic protocol-B device of `kind`, 100 mm wide at 10 units/mm, written as frames in ms with
/// finger positions in mm, and fed as raw evdev events through `GesturePipeline` (frame assembly
/// included, as for a live device) with the default configuration. Touchscreens are 100 × 100 mm
/// (INPUT_PROP_DIRECT); touchpads are 100 × 70 mm clickpads (INPUT_PROP_POINTER + BUTTONPAD, with
/// BTN_TOOL_FINGER … QUADTAP as the kernel sends them). No surface rule: positions are in mm.
struct HandScript {
    enum Change {
        case down(Int, Double, Double)
        case move(Int, Double, Double)
        case up(Int)
    }

    let kind: DeviceKind
    let size: Point
    private var pipeline: GesturePipeline
    private var fingers: [Int: (slot: Int32, at: Point)] = [:]
    private var nextTrackingID: Int32 = 100
    private var lastToolKey: EventCode?
    private(set) var outputs: [EngineOutput] = []
    private(set) var now = Timestamp.zero
    /// Each finger's position after every frame it took part in: (ms, position in mm).
    private(set) var track: [Int: [(ms: Double, at: Point)]] = [:]

    static let unitsPerMM: Int32 = 10

    init(_ kind: DeviceKind, configuration: EngineConfiguration = defaultEngineConfiguration) {
        self.kind = kind
        size = kind == .touchpad ? Point(x: 100, y: 70) : Point(x: 100, y: 100)
        let description = HandScript.description(kind, size: size)
        var engine = GestureEngine(configuration: configuration)
        engine.explains = true
        pipeline = GesturePipeline(engine: engine)
        pipeline.addDevice(description, ref: DeviceRef(id: 0, name: description.name, kind: kind),
                           surface: SurfaceConfiguration())
    }

    static func description(_ kind: DeviceKind, size: Point) -> DeviceDescription {
        func axis(_ mm: Double) -> AbsInfo {
            AbsInfo(minimum: 0, maximum: Int32(mm) * unitsPerMM, resolution: unitsPerMM)
        }
        let abs: [EventCode: AbsInfo] = [
            .absX: axis(size.x), .absY: axis(size.y),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 9),
            .absMTPositionX: axis(size.x), .absMTPositionY: axis(size.y),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        let keys: Set<EventCode> = kind == .touchpad
            ? [.btnLeft, .btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap]
            : [.btnTouch]
        let properties: Set<InputProperty> = kind == .touchpad ? [.pointer, .buttonpad] : [.direct]
        let description = DeviceDescription(name: "synthetic \(kind.rawValue)", properties: properties,
                                            codes: [.key: keys, .abs: Set(abs.keys)], absInfo: abs)
        precondition(description.kind == kind, "the synthetic device classifies as \(description.kind)")
        return description
    }

    private mutating func feed(_ type: EventType, _ code: EventCode, _ value: Int32) {
        outputs += pipeline.feed(RawEvent(time: now, type: type, code: code, value: value), device: 0)
    }

    private func units(_ mm: Double) -> Int32 { Int32((mm * Double(HandScript.unitsPerMM)).rounded()) }

    /// One evdev frame at `ms`: the changes, the legacy pointer axes and finger keys, SYN_REPORT.
    mutating func frame(_ ms: Double, _ changes: Change...) { frame(ms, changes) }

    mutating func frame(_ ms: Double, _ changes: [Change]) {
        now = Timestamp(microseconds: Int64((ms * 1000).rounded()))
        let before = fingers.count
        for change in changes {
            switch change {
            case .down(let f, let x, let y):
                let used = Set(fingers.values.map(\.slot))
                let slot = (0...9).map(Int32.init).first { !used.contains($0) }!
                fingers[f] = (slot, Point(x: x, y: y))
                feed(.abs, .absMTSlot, slot)
                feed(.abs, .absMTTrackingID, nextTrackingID)
                nextTrackingID += 1
                feed(.abs, .absMTPositionX, units(x))
                feed(.abs, .absMTPositionY, units(y))
            case .move(let f, let x, let y):
                guard let slot = fingers[f]?.slot else { continue }
                fingers[f]!.at = Point(x: x, y: y)
                feed(.abs, .absMTSlot, slot)
                feed(.abs, .absMTPositionX, units(x))
                feed(.abs, .absMTPositionY, units(y))
            case .up(let f):
                guard let slot = fingers.removeValue(forKey: f)?.slot else { continue }
                feed(.abs, .absMTSlot, slot)
                feed(.abs, .absMTTrackingID, -1)
            }
        }
        if before == 0 && !fingers.isEmpty { feed(.key, .btnTouch, 1) }
        if before > 0 && fingers.isEmpty { feed(.key, .btnTouch, 0) }
        if kind == .touchpad {
            let tools: [EventCode] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap]
            let tool = fingers.isEmpty ? nil : tools[min(fingers.count, tools.count) - 1]
            if tool != lastToolKey {
                if let old = lastToolKey { feed(.key, old, 0) }
                if let tool { feed(.key, tool, 1) }
                lastToolKey = tool
            }
        }
        if let first = fingers.values.min(by: { $0.slot < $1.slot }) {
            feed(.abs, .absX, units(first.at.x))
            feed(.abs, .absY, units(first.at.y))
        }
        feed(.syn, .synReport, 0)
        for (f, finger) in fingers { track[f, default: []].append((ms, finger.at)) }
    }

    /// Moves fingers together from `from` to `to` ms in frames every `every` ms: `path(f, fraction)`
    /// gives finger `f`'s position at that fraction (0...1) of the stroke.
    mutating func strokes(_ movers: [Int], from: Double, to: Double, every: Double = 10,
                          _ path: (Int, Double) -> Point) {
        let steps = max(1, Int(((to - from) / every).rounded()))
        for i in 1...steps {
            let fraction = Double(i) / Double(steps)
            frame(from + (to - from) * fraction, movers.map { f in
                let p = path(f, fraction)
                return .move(f, p.x, p.y)
            })
        }
    }

    /// Attaches a region as a client would (it keeps its gestures).
    mutating func attach(_ region: RegionSpec, under parent: String, recognizers: [RecognizerSpec]) throws {
        try pipeline.engine.attach(region, under: parent, recognizers: recognizers)
    }

    /// End of input: open touches close, time runs past every deadline (a pending tap recognizes).
    mutating func finish() {
        outputs += pipeline.finish(at: now)
    }

    /// Where finger `f` was at `ms` (its last frame at or before `ms`).
    func position(of f: Int, at ms: Double) -> Point? {
        track[f]?.last { $0.ms <= ms + 0.0005 }?.at
    }

    /// Lines whose location is more than `mm` from finger `f` (or that have no location, or come
    /// when `f` was not down), as "state@ms: location vs finger" texts.
    func linesAway(_ lines: [GestureEvent], from f: Int, by mm: Double) -> [String] {
        lines.compactMap { line in
            let ms = Double(line.time.microseconds) / 1000
            guard let finger = position(of: f, at: ms), let location = line.location else {
                return "\(line.state.rawValue)@\(ms): finger \(f) not down or no location"
            }
            if location.distance(to: finger) <= mm { return nil }
            return "\(line.state.rawValue)@\(ms): \(location) vs finger \(f) at \(finger)"
        }
    }

    var gestures: [GestureEvent] {
        outputs.compactMap { if case .gesture(let g) = $0 { g } else { nil } }
    }

    /// Every explain reason, of every recognizer (and of the engine, if it explains decisions itself).
    var explanations: [String] {
        outputs.compactMap { if case .explain(let e) = $0 { "\(e.gesture): \(e.reason)" } else { nil } }
    }

    /// "id state@ms fingers" lines, for failure messages.
    var summary: [String] {
        gestures.map { "\($0.gesture) \($0.state.rawValue)@\($0.time.microseconds / 1000) f\($0.fingers)" }
    }
}
