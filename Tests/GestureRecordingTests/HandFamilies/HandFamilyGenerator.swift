import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// Two-finger hands generated on real device descriptions (the `.desc` of bundled recordings), for
/// tests (issue 56): families of motion people make (a pivot finger, both fingers turning, a turn while
/// dragging, a turn while zooming, a zoom, a drag, a scroll whose first finger leads across or along
/// the pair's line), at three speeds
/// and three spans, with seeded sensor jitter. Real recordings stay the judge where they exist; these
/// cover the hands no recording has.
struct HandFamily: Sendable, CustomTestStringConvertible {
    enum Motion: String, CaseIterable, Sendable {
        case pivot, bothTurning, turnAndDrag, turnAndZoom, zoom, drag, leadingFingerScroll, leadingAlongLine
    }
    enum Speed: Double, CaseIterable, Sendable { case quick = 400, steady = 800, slow = 1600 }
    enum Span: Double, CaseIterable, Sendable { case narrow = 20, middle = 30, wide = 40 }

    var device: GeneratedDevice
    var motion: Motion
    var speed: Speed
    var span: Span
    var seed: UInt64

    var testDescription: String { "\(device.rawValue) \(motion.rawValue) \(Int(speed.rawValue)) ms \(Int(span.rawValue)) mm" }

    static func all(_ motions: [Motion] = Motion.allCases) -> [HandFamily] {
        var seed: UInt64 = 56
        var out: [HandFamily] = []
        for device in GeneratedDevice.allCases {
            for motion in motions {
                for speed in Speed.allCases {
                    for span in Span.allCases {
                        seed &+= 1
                        out.append(HandFamily(device: device, motion: motion, speed: speed, span: span, seed: seed))
                    }
                }
            }
        }
        return out
    }

    /// Finger `f`'s position (mm from the surface's centre) at `fraction` of the stroke, before jitter.
    func position(_ f: Int, _ fraction: Double) -> Point {
        let s = span.rawValue
        func pair(turn: Double, scale: Double = 1, drag: Point = .zero) -> Point {
            let a = turn * fraction * Double.pi / 180
            let half = s * (1 + (scale - 1) * fraction) / 2
            let v = Point(x: cos(a) * half, y: sin(a) * half)
            let mid = drag * fraction
            return f == 1 ? mid - v : mid + v
        }
        switch motion {
        case .pivot:
            // Finger 1 pivots, dragged 8 mm along by the turn as a pivoting finger is; finger 2
            // circles it 80°.
            let anchor = Point(x: -s / 2, y: 0) + Point(x: 2, y: 8) * fraction
            if f == 1 { return anchor }
            let a = 80 * fraction * Double.pi / 180
            return anchor + Point(x: cos(a) * s, y: sin(a) * s)
        case .bothTurning: return pair(turn: 90)
        case .turnAndDrag:
            // The hand: the drag is most of the motion (the turn's arc is less than three
            // quarters of it on the narrow and middle spans).
            return pair(turn: 100, drag: device == .touchpad ? Point(x: 25, y: 10) : Point(x: 30, y: 25))
        case .turnAndZoom: return pair(turn: 90, scale: 1.3)
        case .zoom: return pair(turn: 0, scale: 1.8)
        case .drag: return pair(turn: 0, drag: Point(x: 0, y: 25))
        case .leadingFingerScroll:
            // Both move 25 mm across the pair; finger 2 follows 40 ms behind finger 1.
            let ms = fraction * speed.rawValue
            let lag = f == 2 ? max(0, ms - 40) / speed.rawValue : fraction
            let base = Point(x: f == 1 ? -s / 2 : s / 2, y: 0)
            return base + Point(x: 0, y: 25 * (f == 2 ? lag : fraction))
        case .leadingAlongLine:
            // A sideways scroll of two fingers side by side: both move 25 mm along the pair's line,
            // finger 1 first, towards finger 2, which follows 40 ms behind.
            let ms = fraction * speed.rawValue
            let lag = max(0, ms - 40) / speed.rawValue
            let base = Point(x: f == 1 ? -s / 2 : s / 2, y: 0)
            return base + Point(x: 25 * (f == 2 ? lag : fraction), y: 0)
        }
    }
}

/// The devices hands are generated on: real descriptions from the bundled recordings.
enum GeneratedDevice: String, CaseIterable, Sendable {
    /// ELAN Touchscreen, 331 × 187 mm, 10 units/mm.
    case touchscreen = "touchscreens/ELAN Touchscreen.desc"
    /// Synaptics touchpad of a Lenovo P50, 98 × 54 mm.
    case touchpad = "touchpads/SynPS2 Synaptics TouchPad.lenovo-p50.desc"

    func description() throws -> DeviceDescription {
        try #require(try RecordingLoader.load(path: Corpus.root + "/" + rawValue).first).description
    }
}

/// A seeded generator (SplitMix64): the same family always gives the same events.
struct SeededJitter {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
    /// Sensor noise, mm: ±0.3 mm around the true position (sum of two uniforms: peaked at 0).
    mutating func noise() -> Double { 0.3 * (next() + next() - 1) }
}

extension HandFamily {
    /// The family's events on its device: both fingers land together (the second 30 ms later), move
    /// in frames every 10 ms (12 ms on the touchpad, as its sensor reports), and lift together.
    func events() throws -> (DeviceDescription, [RawEvent]) {
        let description = try device.description()
        let ax = try #require(description.absInfo[.absMTPositionX]), ay = try #require(description.absInfo[.absMTPositionY])
        let res = Point(x: Double(ax.resolution), y: Double(ay.resolution))
        let centre = Point(x: Double(ax.minimum + ax.maximum) / 2, y: Double(ay.minimum + ay.maximum) / 2)
        let keys = description.codes[.key] ?? []
        var jitter = SeededJitter(state: seed)
        var events: [RawEvent] = []
        var now = Timestamp(microseconds: 1_000_000)
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(RawEvent(time: now, type: type, code: code, value: value))
        }
        func place(_ f: Int, _ p: Point) {
            emit(.abs, .absMTSlot, Int32(f - 1))
            emit(.abs, .absMTPositionX, Int32((centre.x + p.x * res.x).rounded()))
            emit(.abs, .absMTPositionY, Int32((centre.y + p.y * res.y).rounded()))
        }
        func tools(_ n: Int) {
            let all: [EventCode] = [.btnToolFinger, .btnToolDoubleTap]
            for (k, code) in all.enumerated() where keys.contains(code) { emit(.key, code, k + 1 == n ? 1 : 0) }
        }
        let every = device == .touchpad ? 12.0 : 10.0
        func advance(_ ms: Double) { now = Timestamp(microseconds: now.microseconds + Int64(ms * 1000)) }
        // Landing.
        emit(.abs, .absMTSlot, 0); emit(.abs, .absMTTrackingID, 1); place(1, position(1, 0))
        if keys.contains(.btnTouch) { emit(.key, .btnTouch, 1) }
        tools(1); emit(.syn, .synReport, 0)
        advance(30)
        emit(.abs, .absMTSlot, 1); emit(.abs, .absMTTrackingID, 2); place(2, position(2, 0))
        tools(2); emit(.syn, .synReport, 0)
        let steps = Int((speed.rawValue / every).rounded())
        for i in 1...steps {
            advance(every)
            let fraction = Double(i) / Double(steps)
            for f in [1, 2] {
                let p = position(f, fraction)
                place(f, Point(x: p.x + jitter.noise(), y: p.y + jitter.noise()))
            }
            emit(.syn, .synReport, 0)
        }
        advance(every)
        emit(.abs, .absMTSlot, 0); emit(.abs, .absMTTrackingID, -1)
        emit(.abs, .absMTSlot, 1); emit(.abs, .absMTTrackingID, -1)
        if keys.contains(.btnTouch) { emit(.key, .btnTouch, 0) }
        tools(0); emit(.syn, .synReport, 0)
        return (description, events)
    }

    /// The gestures the default config gives for this hand (with `attach`: an app's full-screen
    /// region holding these recognizers too).
    func replay(attach recognizers: [RecognizerSpec] = []) throws -> [GestureEvent] {
        let (description, events) = try events()
        var engine = GestureEngine(configuration: ConfigurationLoader.loadDefault().engine)
        if !recognizers.isEmpty { try engine.attach(RegionSpec(id: "app", frame: .full), under: "screen", recognizers: recognizers) }
        var pipeline = GesturePipeline(engine: engine)
        pipeline.addDevice(description, ref: DeviceRef(id: 0, name: description.name, kind: description.kind),
                           surface: SurfaceConfiguration())
        var outputs: [EngineOutput] = []
        for event in events { outputs += pipeline.feed(event, device: 0) }
        outputs += pipeline.finish(at: events.last?.time ?? .zero)
        return outputs.compactMap { if case .gesture(let g) = $0 { g } else { nil } }
    }
}

/// The hand's geometry before jitter, frame by frame as `events()` writes it: what the tests expect
/// is derived from it and the engine's rules, not listed per hand.
extension HandFamily {
    /// Frame `i`'s time (ms after the first finger landed) and fraction of the stroke.
    var frames: [(ms: Double, fraction: Double)] {
        let every = device == .touchpad ? 12.0 : 10.0
        let steps = Int((speed.rawValue / every).rounded())
        return (1...steps).map { (30 + Double($0) * every, Double($0) / Double(steps)) }
    }

    /// The pair's turn at `fraction` of the stroke, degrees.
    func turn(_ fraction: Double) -> Double {
        let v0 = position(2, 0) - position(1, 0), v = position(2, fraction) - position(1, fraction)
        return abs(atan2(v0.x * v.y - v0.y * v.x, v0.x * v.x + v0.y * v.y)) * 180 / Double.pi
    }

    /// The fingers move together at least twice as far as apart over the stroke: a pan by the pan's
    /// own rule (`FingerMotion.isPanLike`), whatever the turn.
    var isPanLike: Bool {
        let d1 = position(1, 1) - position(1, 0), d2 = position(2, 1) - position(2, 0)
        let mean = (d1 + d2) / 2
        let apart = ((d1 - mean).length + (d2 - mean).length) / 2
        return mean.length >= 2 * apart
    }

    /// When the turn first reaches `degrees` (ms), or nil.
    func timeToTurn(_ degrees: Double) -> Double? { frames.first { turn($0.fraction) >= degrees }?.ms }

    /// When settling ends (ms): `settleTime` after the first finger landed, or sooner once a finger
    /// moved `settleDistance` from where it landed.
    var settleEnd: Double {
        let p = RecognizerParameters()
        let time = RecognizerParameters.defaultSettleTime(for: device == .touchpad ? .touchpad : .touchscreen)
        let distance = device == .touchpad ? p.touchpadSettleDistance : p.settleDistance
        let moved = frames.first { f in
            [1, 2].contains { (position($0, f.fraction) - position($0, 0)).length >= distance }
        }?.ms
        return min(time, moved ?? time)
    }
}
