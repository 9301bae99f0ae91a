/// UIGestureRecognizer.State, as published. `possible` and `failed` are internal and never published.
public enum GestureState: String, Sendable, Hashable, CaseIterable {
    case possible, began, changed, ended, cancelled, failed, recognized
}

/// A recognizer's published state change.
public struct GestureEvent: Hashable, Sendable {
    /// The recognizer's id, the device's name and the region's id, interned: copying an event
    /// copies no reference-counted storage (`gesture`, `device` and `region` read them as strings).
    public var gestureName: InternedString
    public var kind: RecognizerKind
    public var state: GestureState
    public var time: Timestamp
    public var deviceName: InternedString
    public var regionName: InternedString
    public var fingers: Int
    public var taps: Int?
    public var direction: SwipeDirection?
    /// Centroid of the recognizer's touches, surface units.
    public var location: Point?
    /// From the first centroid, surface units (pan, edge-pan, swipe).
    public var translation: Point?
    /// Surface units per second (pan, edge-pan, swipe).
    public var velocity: Point?
    /// Cumulative, from 1.0 (pinch).
    public var scale: Double?
    /// Cumulative radians, clockwise positive in surface coordinates (rotation).
    public var rotation: Double?
    /// Scale per second (pinch) or radians per second (rotation).
    public var scalarVelocity: Double?
    /// The mean pressure (0…1) of its pen touches, for a gesture made with a pen (docs/recognizers.md,
    /// "Pens"); nil for fingers.
    public var pressure: Double?

    public init(gesture: String, kind: RecognizerKind, state: GestureState, time: Timestamp, device: String,
                region: String, fingers: Int, taps: Int? = nil, direction: SwipeDirection? = nil,
                location: Point? = nil, translation: Point? = nil, velocity: Point? = nil, scale: Double? = nil,
                rotation: Double? = nil, scalarVelocity: Double? = nil) {
        self.init(gestureName: InternedString(gesture), kind: kind, state: state, time: time,
                  deviceName: InternedString(device), regionName: InternedString(region), fingers: fingers, taps: taps,
                  direction: direction, location: location, translation: translation, velocity: velocity,
                  scale: scale, rotation: rotation, scalarVelocity: scalarVelocity)
    }

    /// With the names already interned (the engine keeps its recognizers', regions' and devices').
    public init(gestureName: InternedString, kind: RecognizerKind, state: GestureState, time: Timestamp,
                deviceName: InternedString, regionName: InternedString, fingers: Int, taps: Int? = nil,
                direction: SwipeDirection? = nil, location: Point? = nil, translation: Point? = nil,
                velocity: Point? = nil, scale: Double? = nil, rotation: Double? = nil, scalarVelocity: Double? = nil) {
        self.gestureName = gestureName
        self.kind = kind
        self.state = state
        self.time = time
        self.deviceName = deviceName
        self.regionName = regionName
        self.fingers = fingers
        self.taps = taps
        self.direction = direction
        self.location = location
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.rotation = rotation
        self.scalarVelocity = scalarVelocity
    }
}

extension GestureEvent {
    public var gesture: String {
        get { gestureName.string }
        set { gestureName = InternedString(newValue) }
    }
    public var device: String {
        get { deviceName.string }
        set { deviceName = InternedString(newValue) }
    }
    public var region: String {
        get { regionName.string }
        set { regionName = InternedString(newValue) }
    }
}

/// A raw touch as delivered to a region's touch stream, or printed by `replay --touches`.
public struct TouchEvent: Hashable, Sendable {
    public var phase: TouchPhase
    public var id: TouchID
    public var location: Point
    /// The region the touch hit (nil for `replay --touches` before hit-testing).
    public var region: String?
    /// The region whose touch stream this is: the hit region, or the nearest ancestor with a touch
    /// consumer (the responder chain). nil for `replay --touches`.
    public var responder: String?
    public var tapCount: Int
    public var time: Timestamp
    public var device: String
    /// Finger, pen or eraser. A finger's line carries none of the pen's keys (docs/protocol.md, "Pens").
    public var type: TouchType = .finger
    /// A pen's: pressure 0…1, altitude and azimuth (radians, `Touch`), barrel buttons held.
    public var pressure: Double?
    public var altitudeAngle: Double?
    public var azimuthAngle: Double?
    public var buttons: StylusButtons = []
    /// A hover line (a pen in range, not touching): its phase replaces `phase` on the line, and
    /// `distance` (0…1) says how far from the glass it is, where known.
    public var hoverPhase: PenHover.Phase?
    public var distance: Double?
    /// On a `began` line: the hit chain the engine bound the touch to, the hit region first, then its
    /// ancestors up to the root (a window's region and its output's among them when the touch landed
    /// on a window); nil on every other line (docs/protocol.md, "The hit chain of a touch").
    public var chain: [String]?

    public init(phase: TouchPhase, id: TouchID, location: Point, region: String?, responder: String? = nil,
                tapCount: Int, time: Timestamp, device: String) {
        self.phase = phase
        self.id = id
        self.location = location
        self.region = region
        self.responder = responder
        self.tapCount = tapCount
        self.time = time
        self.device = device
    }

    public init(_ touch: Touch, region: String?, device: String) {
        self.init(phase: touch.phase, id: touch.id, location: touch.location, region: region,
                  tapCount: touch.tapCount, time: touch.time, device: device)
        if touch.type != .finger {
            type = touch.type
            pressure = touch.pressure
            altitudeAngle = touch.altitudeAngle
            azimuthAngle = touch.azimuthAngle
            buttons = touch.buttons
        }
    }

    /// A hover line.
    public init(_ hover: PenHover, time: Timestamp, region: String?, device: String) {
        // `phase` is no touch phase here (a hover is no touch): `hoverPhase` is the line's.
        self.init(phase: .stationary, id: hover.id, location: hover.location,
                  region: region, tapCount: 0, time: time, device: device)
        type = hover.type
        altitudeAngle = hover.altitudeAngle
        azimuthAngle = hover.azimuthAngle
        buttons = hover.buttons
        hoverPhase = hover.phase
        distance = hover.distance
    }

    /// The phase as the line names it: a touch's, or a hover's (`hovering`, `hover-ended`).
    public var phaseName: String { hoverPhase?.rawValue ?? phase.rawValue }
}

/// One line of explanation: a recognizer's transition and why.
public struct ExplainEvent: Hashable, Sendable {
    public var gesture: String
    public var region: String
    public var from: GestureState
    public var to: GestureState
    public var time: Timestamp
    /// Human-readable reason ("moved 7.2 mm > 6 mm allowed", "excluded by pan", "required double-tap to fail").
    public var reason: String
    /// A line of routine (a recognizer received a touch; a gesture in progress moved or its
    /// fingers lifted; the sequence ended and recognizers reset), not a decision: printed only
    /// when asked for (`--verbose`), `"routine":true` in the JSON line.
    public var routine: Bool
    public init(gesture: String, region: String, from: GestureState, to: GestureState, time: Timestamp, reason: String,
                routine: Bool = false) {
        self.gesture = gesture
        self.region = region
        self.from = from
        self.to = to
        self.time = time
        self.reason = reason
        self.routine = routine
    }
}

/// Everything the engine emits.
public enum EngineOutput: Hashable, Sendable {
    case gesture(GestureEvent)
    case touch(TouchEvent)
    case explain(ExplainEvent)
    /// A verdict on a touch of a forwarded device: what the desktop gets of it (docs/forwarding.md).
    case forwarding(TouchForwarding)
}
