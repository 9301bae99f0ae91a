import GestureCore

/// A threshold `gestured tune` may fit: which recognizer kind has it, its config key and unit,
/// which measurement of a sample it is compared with, and the range documented as sane
/// (docs/configuration.md, "Sane ranges"): the fit never proposes a value outside it.
public enum TunableParameter: String, CaseIterable, Sendable, Hashable {
    case tapMovement, tapDuration, tapInterval, tapDistance
    case pressDuration, pressMovement
    case panThreshold
    case swipeDistance, swipeDuration, swipeAngle, swipeBeginDistance
    case pinchThreshold
    case rotationThreshold, rotationMinimumSpan
    case edgeZone, edgePanThreshold

    public enum Unit: String, Sendable { case mm, ms, deg }

    /// How a gesture's own samples must compare with the threshold.
    public enum Sense: Sendable {
        /// The samples stay at or under it (a tap's movement, a swipe's time).
        case atMost
        /// The samples reach it (a swipe's distance, a pinch's span change).
        case atLeast
    }

    public var kind: RecognizerKind {
        switch self {
        case .tapMovement, .tapDuration, .tapInterval, .tapDistance: .tap
        case .pressDuration, .pressMovement: .longPress
        case .panThreshold: .pan
        case .swipeDistance, .swipeDuration, .swipeAngle, .swipeBeginDistance: .swipe
        case .pinchThreshold: .pinch
        case .rotationThreshold, .rotationMinimumSpan: .rotation
        case .edgeZone, .edgePanThreshold: .edgePan
        }
    }

    /// The key in a gesture of the config file.
    public var key: String {
        switch self {
        case .tapMovement, .pressMovement: "movement"
        case .tapDuration, .swipeDuration: "max-duration"
        case .tapInterval: "max-interval"
        case .tapDistance: "max-distance"
        case .pressDuration: "min-duration"
        case .panThreshold, .pinchThreshold, .rotationThreshold, .edgePanThreshold: "threshold"
        case .swipeDistance: "min-distance"
        case .swipeAngle: "angle-tolerance"
        case .swipeBeginDistance: "begin-distance"
        case .rotationMinimumSpan: "min-span"
        case .edgeZone: "edge-zone"
        }
    }

    /// "tap movement", for tables and messages.
    public var name: String { "\(kind.rawValue) \(key)" }

    public var unit: Unit {
        switch self {
        case .tapDuration, .tapInterval, .pressDuration, .swipeDuration: .ms
        case .swipeAngle, .rotationThreshold: .deg
        default: .mm
        }
    }

    public var sense: Sense {
        switch self {
        case .tapMovement, .tapDuration, .tapInterval, .tapDistance, .pressMovement, .swipeDuration, .swipeAngle,
             .rotationMinimumSpan, .edgeZone: .atMost
        case .pressDuration, .panThreshold, .swipeDistance, .swipeBeginDistance, .pinchThreshold, .rotationThreshold,
             .edgePanThreshold: .atLeast
        }
    }

    /// The range documented as sane in docs/configuration.md ("Sane ranges").
    public var saneRange: ClosedRange<Double> {
        switch self {
        case .tapMovement: 2...15
        case .tapDuration: 100...1000
        case .tapInterval: 100...700
        case .tapDistance: 3...30
        case .pressDuration: 200...2000
        case .pressMovement: 2...15
        case .panThreshold: 1...10
        case .swipeDistance: 3...100
        case .swipeDuration: 150...2000
        case .swipeAngle: 10...45
        case .swipeBeginDistance: 2...10
        case .pinchThreshold: 1...10
        case .rotationThreshold: 2...45
        case .rotationMinimumSpan: 5...40
        case .edgeZone: 2...20
        case .edgePanThreshold: 1...10
        }
    }

    /// A length the device's noise must not reach: the fit keeps it at least twice the noise
    /// (two fingers' jitter in opposite directions).
    public var isFlooredByNoise: Bool {
        switch self {
        case .tapMovement, .pressMovement, .panThreshold, .swipeBeginDistance, .pinchThreshold, .edgePanThreshold: true
        default: false
        }
    }

    /// What the samples do on this measure, for messages: "your taps *move as far as* your pans".
    public var verb: String {
        switch self {
        case .tapMovement, .pressMovement: "move as far as"
        case .tapDuration, .pressDuration: "last as long as"
        case .tapInterval: "pause as long as"
        case .tapDistance: "land as far apart as"
        case .panThreshold, .swipeDistance, .swipeBeginDistance, .edgePanThreshold: "travel as far as"
        case .swipeDuration: "take as long as"
        case .swipeAngle: "stray as far off the axis as"
        case .pinchThreshold: "change their spread as much as"
        case .rotationThreshold: "turn as much as"
        case .rotationMinimumSpan: "are as close together as"
        case .edgeZone: "start as far from the edge as"
        }
    }

    /// What is measured, for table headings (at most 10 characters).
    public var measureName: String {
        switch self {
        case .tapMovement, .pressMovement: "moved"
        case .tapDuration: "down"
        case .pressDuration: "held"
        case .tapInterval: "interval"
        case .tapDistance: "apart"
        case .panThreshold, .swipeDistance, .swipeBeginDistance, .edgePanThreshold: "travel"
        case .swipeDuration: "stroke"
        case .swipeAngle: "off axis"
        case .pinchThreshold: "spread"
        case .rotationThreshold: "turn"
        case .rotationMinimumSpan: "span"
        case .edgeZone: "from edge"
        }
    }

    public func value(in p: RecognizerParameters) -> Double {
        switch self {
        case .tapMovement: p.tapMovement
        case .tapDuration: p.tapDuration
        case .tapInterval: p.tapInterval
        case .tapDistance: p.tapDistance
        case .pressDuration: p.minimumPressDuration
        case .pressMovement: p.pressMovement
        case .panThreshold, .edgePanThreshold: p.panThreshold
        case .swipeDistance: p.minimumDistance
        case .swipeDuration: p.maximumDuration
        case .swipeAngle: p.angleTolerance
        case .swipeBeginDistance: p.swipeBeginDistance
        case .pinchThreshold: p.pinchThreshold
        case .rotationThreshold: p.rotationThreshold
        case .rotationMinimumSpan: p.rotationMinimumSpan
        case .edgeZone: p.edgeZone
        }
    }

    public func set(_ value: Double, in p: inout RecognizerParameters) {
        switch self {
        case .tapMovement: p.tapMovement = value
        case .tapDuration: p.tapDuration = value
        case .tapInterval: p.tapInterval = value
        case .tapDistance: p.tapDistance = value
        case .pressDuration: p.minimumPressDuration = value
        case .pressMovement: p.pressMovement = value
        case .panThreshold, .edgePanThreshold: p.panThreshold = value
        case .swipeDistance: p.minimumDistance = value
        case .swipeDuration: p.maximumDuration = value
        case .swipeAngle: p.angleTolerance = value
        case .swipeBeginDistance: p.swipeBeginDistance = value
        case .pinchThreshold: p.pinchThreshold = value
        case .rotationThreshold: p.rotationThreshold = value
        case .rotationMinimumSpan: p.rotationMinimumSpan = value
        case .edgeZone: p.edgeZone = value
        }
    }

    /// Whether a gesture has this parameter on samples of this device kind (a continuous swipe has
    /// no minimum distance; only a tap needing more taps has an interval).
    public func applies(to spec: RecognizerSpec, on deviceKind: DeviceKind) -> Bool {
        guard spec.kind == kind else { return false }
        let p = spec.parameters
        let continuous = p.swipeStyle == .continuous || (p.swipeStyle == .automatic && deviceKind == .touchpad)
        switch self {
        case .tapInterval, .tapDistance: return p.taps > 1
        case .swipeBeginDistance: return continuous
        case .swipeDistance, .swipeDuration, .swipeAngle: return !continuous
        default: return true
        }
    }

    /// The sample's value on this measure, judged against the gesture's parameters `p` (a swipe's
    /// stroke time is the time it took to reach `p.minimumDistance`); nil when it has none.
    public func measure(_ m: SampleMeasurements, spec: RecognizerSpec) -> Double? {
        switch self {
        case .tapMovement: return m.movement
        case .tapDuration: return m.longestPress
        case .tapInterval: return m.largestInterval
        case .tapDistance: return m.largestPressDistance
        case .pressDuration: return m.hold
        case .pressMovement: return m.holdMovement
        case .panThreshold, .swipeDistance, .swipeBeginDistance, .edgePanThreshold: return m.travel
        case .swipeDuration: return m.time(toTravel: spec.parameters.minimumDistance)
        case .swipeAngle: return m.travel > 0 ? m.offAxis : nil
        case .pinchThreshold: return m.fingers >= 2 ? m.spanChange : nil
        case .rotationThreshold: return m.fingers >= 2 ? m.turn : nil
        case .rotationMinimumSpan: return m.fingers >= 2 ? m.initialSpan : nil
        case .edgeZone:
            return spec.parameters.edges.compactMap { m.edgeDistances[$0.rawValue] }.min()
        }
    }

    /// Which other gestures' samples this threshold is what tells apart from the gesture's own:
    /// their kinds (and `none`, the samples that must give nothing, for thresholds they reach).
    public var rivalKinds: Set<RecognizerKind> {
        switch self {
        case .tapMovement: [.pan, .swipe, .edgePan, .pinch, .rotation]
        case .tapDuration: [.longPress]
        case .tapInterval, .tapDistance: []
        case .pressDuration: [.tap]
        case .pressMovement: [.pan, .swipe, .edgePan]
        case .panThreshold, .swipeDistance, .swipeBeginDistance, .edgePanThreshold: [.tap, .longPress]
        case .swipeDuration: [.pan]
        case .swipeAngle, .rotationMinimumSpan: []
        case .pinchThreshold: [.tap, .longPress]
        case .rotationThreshold: [.pinch, .tap, .longPress]
        case .edgeZone: [.pan]
        }
    }

    /// Whether samples labelled `none` compete on this threshold (they must not reach it).
    public var noneSamplesCompete: Bool { sense == .atLeast }

    /// The parameters of a kind, in the order the fit decides them (a swipe's distance before its time).
    public static func parameters(of kind: RecognizerKind) -> [TunableParameter] {
        allCases.filter { $0.kind == kind }
    }
}
