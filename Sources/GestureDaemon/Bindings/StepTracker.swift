#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore

/// Turns one continuous gesture's progress into steps for a stepped binding (`every:`). It reads
/// only the values the gesture events carry (translation, scale, rotation), cumulative from where
/// the fingers landed, so it does not depend on how a recognizer decides.
///
/// Boundaries lie at whole multiples of the step from the start. Each boundary crossed is one step,
/// +1 when the value grows, -1 when it shrinks; after a step the next boundary is one step further
/// on either side, so turning back fires the other sign once a whole step has been travelled back
/// (a finger trembling on a boundary does not fire on every frame).
struct StepTracker {
    /// More steps than this from one event are skipped (a jump of the fingers, or a tiny step);
    /// the position still moves on.
    static let maximumStepsPerEvent = 50

    let measure: StepMeasure
    /// Surface units per mm along surface x / y of the gesture's device (translation is in surface units).
    let unitsPerMM: Point
    /// The last boundary stepped over, in steps (per axis for translations).
    private var anchorX = 0
    private var anchorY = 0
    private var anchor = 0
    /// The axis a translation steps along once the first step has fired (`axis:` or the dominant one).
    private(set) var axis: StepAxis?

    init(measure: StepMeasure, unitsPerMM: Point = Point(x: 1, y: 1)) {
        self.measure = measure
        self.unitsPerMM = unitsPerMM
        if case .distance(_, let fixed) = measure { axis = fixed }
    }

    /// The steps this event's value adds: a signed count (+3: three steps up). 0 when none or when
    /// the event does not carry the measured value.
    mutating func update(_ event: GestureEvent) -> Int {
        switch measure {
        case .distance(let mm, _):
            guard let t = event.translation, mm > 0 else { return 0 }
            let progressX = t.x / max(unitsPerMM.x, .leastNonzeroMagnitude) / mm
            let progressY = t.y / max(unitsPerMM.y, .leastNonzeroMagnitude) / mm
            if axis == nil {
                // The dominant axis: the first to reach a boundary (the farther one, if both do at once).
                let crossX = Self.crossings(progressX, from: anchorX)
                let crossY = Self.crossings(progressY, from: anchorY)
                guard crossX != 0 || crossY != 0 else { return 0 }
                axis = abs(progressX) > abs(progressY) ? .x : .y
            }
            return axis == .x ? Self.advance(progressX, &anchorX) : Self.advance(progressY, &anchorY)
        case .scale(let ratio):
            guard let scale = event.scale, scale > 0, ratio > 0 else { return 0 }
            return Self.advance(log(scale) / log(1 + ratio), &anchor)
        case .angle(let degrees):
            guard let radians = event.rotation, degrees > 0 else { return 0 }
            return Self.advance(radians * 180 / Double.pi / degrees, &anchor)
        }
    }

    /// Boundaries crossed from `anchor` to `progress` (both in steps), signed.
    static func crossings(_ progress: Double, from anchor: Int) -> Int {
        guard progress.isFinite else { return 0 }
        let bounded = min(max(progress, -1e9), 1e9)
        if bounded >= Double(anchor + 1) { return Int((bounded - Double(anchor)).rounded(.down)) }
        if bounded <= Double(anchor - 1) { return -Int((Double(anchor) - bounded).rounded(.down)) }
        return 0
    }

    /// Moves `anchor` over the crossed boundaries and returns how many, capped at
    /// `maximumStepsPerEvent` either way.
    private static func advance(_ progress: Double, _ anchor: inout Int) -> Int {
        let crossed = crossings(progress, from: anchor)
        anchor += crossed
        return min(max(crossed, -maximumStepsPerEvent), maximumStepsPerEvent)
    }
}
