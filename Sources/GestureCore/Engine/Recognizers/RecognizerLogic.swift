#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The touches of one recognizer in one frame (or at a deadline, with no touches).
struct RecognizerInput: ~Copyable, Sendable {
    var time: Timestamp
    /// The recognizer's touches in this frame, in frame order (stationary ones included).
    /// (A touch whose motion the contact hygiene dropped in this frame is `originRebased`: its
    /// origin starts again here.)
    var touches: [Touch]
    var surfaceSize: Point
    var unitsPerMM: Point
    /// A physical click went down in this frame (a clickpad pressed).
    var clicked = false
    /// A rival that reads the same fingers' motion differently (pan against pinch / rotation) is still
    /// possible and would be excluded by this recognizer: decide by the fingers' motion, not only by
    /// which threshold is crossed first.
    var contested = false
    /// Forwarding: this recognizer takes its touches from the desktop (it claims them), so the
    /// desktop's own reading of them (a two-finger scroll) is its rival too (PinchRecognizer.swift).
    var desktopScrolls = false
    /// Keep measuring, do not begin. Pinch / rotation: three or more fingers are down and a gesture
    /// of that many fingers is still possible on them (a swipe is not a twist). Any touchpad pan,
    /// swipe, pinch or rotation: one of its fingers rests in a clickpad's button area
    /// (`EngineLane.restsInButtonArea`).
    var crowded = false
    /// Touchpads: libinput's decision about these fingers (`TouchpadPairClassifier`), when the
    /// recognizer's fingers are all the pad's gesture fingers; `.undecided` otherwise.
    var verdict = TouchpadVerdict.undecided
    /// Pinch / rotation on a touchpad: a finger joined a motion under way and not every finger has
    /// moved yet (`EngineLane.measuresFromJoin`): the pair's measure starts again in this frame.
    var restartsMeasure = false
    /// Pinch on a touchpad: libinput may still decide these two fingers by their directions
    /// (`TouchpadPairClassifier.stillDeciding`): the span's own threshold waits (PinchRecognizer.swift).
    var libinputDeciding = false

    /// Whether any of the touches moved in this frame.
    var anyMoved: Bool { touches.contains { $0.phase == .moved } }
}

/// What a recognizer's logic asks the engine for. The engine decides (state machine, require-to-fail,
/// exclusion) whether and when it happens.
enum Proposal: Sendable, Hashable {
    case none
    case recognize(Reason)
    case begin(Reason)
    case change
    case end
    case cancel(Reason)
    case fail(Reason)
    /// The recognizer's state machine met an event it has no transition for: a bug. The engine counts
    /// and reports it, then fails (possible) or cancels (in progress) the recognizer.
    case bug(Reason)

    /// Nothing proposed. (A pattern match: the derived `==` compares the reasons' payloads, and out
    /// of line it cost a call per recognizer and frame.)
    @inline(__always)
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

/// One recognizer kind's gesture logic: an explicit state machine (its own `State` and `Event` enums,
/// the frame turned into events first, then one exhaustive switch), whose transition table is in its
/// file's comment. It never changes the published state itself: it proposes. `state` is the published
/// state the engine wants the logic to act in (`.began` while a continuous recognizer waits with its
/// began pending).
protocol RecognizerLogic: Sendable {
    /// Steps of the state machine, recorded when tracing (tests, debug logging).
    var trace: MachineTrace { get set }
    mutating func handle(_ input: borrowing RecognizerInput, state: GestureState) -> Proposal
    /// Called when `deadline` is reached.
    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal
    var deadline: Timestamp? { get }
    mutating func reset()
    /// Fills the kind's fields of an event (fingers, location, translation...).
    func describe(_ event: inout GestureEvent, at time: Timestamp)
    /// Why a begin held back (settling, require-to-fail) no longer fits the fingers' motion when it is
    /// released, or nil: a pan whose fingers have since spread apart is no longer a pan.
    var disqualification: Reason? { get }
    /// A disqualified held begin (`disqualification`) is withdrawn instead of failing: the logic goes
    /// back to deciding, and the returned reason is the explain line's. nil (the default): it fails.
    mutating func withdrawBegin(at time: Timestamp) -> Reason?
}

extension RecognizerLogic {
    var disqualification: Reason? { nil }
    mutating func withdrawBegin(at time: Timestamp) -> Reason? { nil }
}

/// A short history of a value for velocities: the change over the last ~100 ms, per second.
struct VelocityRing: Sendable {
    /// One array of (time, value) pairs, not one per field: a push writes one array, one uniqueness
    /// check a frame instead of two (docs/performance.md).
    private struct Sample: Sendable {
        var time: Int64 = 0
        var value = Point.zero
    }
    private var samples: [Sample] = .init(repeating: Sample(), count: 8)
    private var count = 0
    private var head = 0
    static let window: Int64 = 100_000

    mutating func reset() {
        count = 0
        head = 0
    }

    @inline(__always)
    mutating func push(_ time: Timestamp, _ value: Point) {
        if count > 0 {
            let last = (head + 7) & 7
            if samples[last].time == time.rawValue {
                samples[last].value = value
                return
            }
        }
        samples[head] = Sample(time: time.rawValue, value: value)
        head = (head + 1) & 7
        count = min(count + 1, 8)
    }

    /// Units per second of the latest sample against the oldest sample within the window before it
    /// (or the sample just before it).
    @inline(__always)
    var velocity: Point {
        guard count >= 2 else { return .zero }
        let last = (head + 7) & 7
        var ref = (last + 7) & 7
        var k = 2
        while k < count {
            let candidate = (ref + 7) & 7
            if samples[last].time - samples[candidate].time > VelocityRing.window { break }
            ref = candidate
            k += 1
        }
        let dt = Double(samples[last].time - samples[ref].time) / 1_000_000
        guard dt > 0 else { return .zero }
        return (samples[last].value - samples[ref].value) / dt
    }
}

/// Centroid motion of a set of touches, compensated for fingers joining and leaving: each frame adds
/// the mean displacement of the touches that were already down.
struct MotionTracker: Sendable {
    /// Surface units, from the first centroid.
    var translation = Point.zero
    /// mm, from the first centroid.
    var translationMM = Point.zero
    var ring = VelocityRing()
    /// Centroid of the active touches, surface units.
    var location = Point.zero
    /// Touches still down after this frame.
    var active = 0
    /// Touches in this frame, those lifting in it included (what an event reports as `fingers`).
    var fingers = 0

    mutating func reset() {
        restartTranslation()
        ring.reset()
        location = .zero
        active = 0
        fingers = 0
    }

    /// The fingers are not all down yet: translation starts again from here.
    mutating func restartTranslation() {
        translation = .zero
        translationMM = .zero
    }

    /// Returns whether the centroid moved.
    @discardableResult
    mutating func update(_ input: borrowing RecognizerInput) -> Bool { update(input.touches, at: input.time) }

    /// Returns whether the centroid moved.
    @discardableResult
    @inline(__always)
    mutating func update(_ touches: [Touch], at time: Timestamp) -> Bool {
        var d = Point.zero
        var dmm = Point.zero
        var n = 0.0
        var sum = Point.zero
        var active = 0
        var fingers = 0
        var all = Point.zero
        for k in touches.indices {  // by index: no copy of each touch
            fingers += 1
            let phase = touches[k].phase
            all += touches[k].location
            if phase != .began {
                d += touches[k].location - touches[k].previousLocation
                dmm += touches[k].physicalLocation - touches[k].previousPhysicalLocation
                n += 1
            }
            if !phase.isTerminal {
                sum += touches[k].location
                active += 1
            }
        }
        // In a frame where fingers lift, the location is the centroid of every touch of the frame at
        // its last position, the lifting ones included: a gesture that ends here ends where its fingers
        // were, not on the finger left down (docs/recognizers.md, "Locations").
        if active == fingers {
            if active > 0 { location = sum / Double(active) }
        } else {
            location = all / Double(fingers)
        }
        self.active = active
        if fingers > 0 { self.fingers = fingers }
        var moved = false
        if n > 0 {
            d = d / n
            dmm = dmm / n
            moved = d.x != 0 || d.y != 0
            translation += d
            translationMM += dmm
        }
        ring.push(time, translation)
        return moved
    }

    /// Fills a swipe's event fields (discrete or continuous): its fingers and direction, the centroid,
    /// translation and velocity.
    func describeSwipe(_ event: inout GestureEvent, fingers: Int, direction: SwipeDirection) {
        event.fingers = fingers
        event.direction = direction
        event.location = location
        event.translation = translation
        event.velocity = ring.velocity
    }

    /// Fills a pan's event fields (pan, edge pan): fingers, centroid, translation and velocity.
    func describePan(_ event: inout GestureEvent) {
        event.fingers = max(fingers, 1)
        event.location = location
        event.translation = translation
        event.velocity = ring.velocity
    }
}

/// Small geometry helpers without Foundation.
enum Geometry {
    #if canImport(Glibc) || canImport(Darwin)
    static func atan2(_ y: Double, _ x: Double) -> Double { Glibc_atan2(y, x) }
    static func log(_ x: Double) -> Double { Glibc_log(x) }
    @inline(__always)
    static func tan(_ x: Double) -> Double { Glibc_tan(x) }
    #else
    // No C library to ask (the package builds where there is one): no angles.
    static func atan2(_ y: Double, _ x: Double) -> Double { 0 }
    static func log(_ x: Double) -> Double { 0 }
    static func tan(_ x: Double) -> Double { 0 }
    #endif
    static let degreesPerRadian = 180.0 / Double.pi

    /// Angle difference wrapped to (-π, π].
    static func wrap(_ a: Double) -> Double {
        var v = a
        while v > Double.pi { v -= 2 * Double.pi }
        while v <= -Double.pi { v += 2 * Double.pi }
        return v
    }

    static func centroid(_ touches: [Touch], physical: Bool, activeOnly: Bool) -> Point {
        var sum = Point.zero
        var n = 0.0
        for t in touches where !activeOnly || !t.phase.isTerminal {
            sum += physical ? t.physicalLocation : t.location
            n += 1
        }
        return n > 0 ? sum / n : .zero
    }
}

#if canImport(Glibc) || canImport(Darwin)
@inline(__always) private func Glibc_atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) private func Glibc_log(_ x: Double) -> Double { log(x) }
@inline(__always) private func Glibc_tan(_ x: Double) -> Double { tan(x) }
#endif

/// A machine with a deadline that ends in its `done` state (tap, long press, discrete swipe): its
/// `finish` is every failure's and every recognition's last step, and its deadline passing is its
/// `timeout` event.
protocol FinishingMachine {
    associatedtype State: FinishingStates
    associatedtype Event: TimeoutEvents
    var state: State { get set }
    var deadline: Timestamp? { get set }
    /// The state machine: one event, one row of the machine's table.
    mutating func step(_ event: Event, at time: Timestamp) -> Proposal
}

/// The states of a machine that ends in `done`: an enum with a `done` case adopts it.
protocol FinishingStates {
    static var done: Self { get }
}

/// The events of a machine whose deadline can pass: an enum with a `timeout` case adopts it.
protocol TimeoutEvents {
    static var timeout: Self { get }
}

extension FinishingMachine {
    /// The deadline passed.
    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { step(.timeout, at: time) }

    /// Ends the machine: `done`, no deadline; returns the proposal.
    mutating func finish(_ proposal: Proposal) -> Proposal {
        state = State.done
        deadline = nil
        return proposal
    }
}
