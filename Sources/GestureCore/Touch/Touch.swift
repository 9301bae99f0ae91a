/// A stable touch identity, unique for the lifetime of a pipeline (across devices).
public struct TouchID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible, BitwiseCopyable {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// UITouch.Phase.
public enum TouchPhase: String, Sendable, Hashable, CaseIterable {
    case began, moved, stationary, ended, cancelled
    /// The touch is over after this phase.
    @inline(__always)
    public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// A device as the pipeline names it: a small id and the name used in outputs.
public struct DeviceRef: Hashable, Sendable {
    public var id: Int
    /// The name, interned: a frame carries its `DeviceRef`, and copying one then copies no
    /// reference-counted storage.
    public var internedName: InternedString
    public var name: String {
        get { internedName.string }
        set { internedName = InternedString(newValue) }
    }
    public var kind: DeviceKind
    /// INPUT_PROP_SEMI_MT: the device reports the bounding box of its fingers, not their positions,
    /// so the angle between two touches means nothing (rotation never begins on such a device).
    /// Set by `FrameAssembler` from the device description.
    public var isSemiMultitouch: Bool
    /// INPUT_PROP_BUTTONPAD: a clickpad, whose whole surface is the button (a finger presses it down
    /// to click). Set by `FrameAssembler` from the device description.
    public var isButtonpad: Bool
    public init(id: Int, name: String, kind: DeviceKind, isSemiMultitouch: Bool = false, isButtonpad: Bool = false) {
        self.id = id
        self.internedName = InternedString(name)
        self.kind = kind
        self.isSemiMultitouch = isSemiMultitouch
        self.isButtonpad = isButtonpad
    }
}

/// One finger from down to up, as UITouch: the state of the touch at one frame.
public struct Touch: Hashable, Sendable {
    public var id: TouchID
    public var phase: TouchPhase
    /// Position on the surface (surface units: pixels for a screen, mm for a touchpad).
    public var location: Point
    public var previousLocation: Point
    /// Position in mm on the device, for thresholds.
    public var physicalLocation: Point
    public var previousPhysicalLocation: Point
    public var time: Timestamp
    /// Consecutive quick taps at nearly the same place, this one included (UITouch.tapCount).
    public var tapCount: Int
    /// Normalised pressure 0...1 where the device reports it.
    public var pressure: Double?
    /// Contact major axis in mm where the device reports it.
    public var majorAxis: Double?
    /// Finger, pen or eraser (UITouch.type).
    public var type: TouchType
    /// A pen's angle to the surface, radians: π/2 upright, toward 0 as it lies flat (UITouch.altitudeAngle);
    /// nil for a finger or a pen that reports no tilt (`PenTilt`).
    public var altitudeAngle: Double?
    /// The direction the pen leans toward, radians clockwise from the surface's +x (UITouch.azimuthAngle);
    /// nil where `altitudeAngle` is.
    public var azimuthAngle: Double?
    /// The pen's barrel buttons held at this frame.
    public var buttons: StylusButtons
    /// A finger the device counted (BTN_TOOL_*TAP) but did not give a slot to; it follows the
    /// centroid of the real touches.
    public var isSynthesized: Bool
    /// `DeviceRef.id` of the device (the frame carries the whole `DeviceRef`). Only the id is kept
    /// here so that copying a touch copies no reference-counted storage (the name).
    public var deviceID: Int
    /// The engine's contact hygiene dropped this touch's motion in this frame (a first-contact
    /// jump, or motion while the finger count changed on a touchpad): recognizers measure it from
    /// here again. Set only on the touches recognizers see, never in a device's frames.
    public internal(set) var originRebased = false

    public init(id: TouchID, phase: TouchPhase, location: Point, previousLocation: Point? = nil,
                physicalLocation: Point, previousPhysicalLocation: Point? = nil, time: Timestamp,
                tapCount: Int = 1, pressure: Double? = nil, majorAxis: Double? = nil,
                isSynthesized: Bool = false, type: TouchType = .finger, altitudeAngle: Double? = nil,
                azimuthAngle: Double? = nil, buttons: StylusButtons = [], device: DeviceRef) {
        self.id = id
        self.phase = phase
        self.location = location
        self.previousLocation = previousLocation ?? location
        self.physicalLocation = physicalLocation
        self.previousPhysicalLocation = previousPhysicalLocation ?? physicalLocation
        self.time = time
        self.tapCount = tapCount
        self.pressure = pressure
        self.majorAxis = majorAxis
        self.isSynthesized = isSynthesized
        self.type = type
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.buttons = buttons
        self.deviceID = device.id
    }
}

/// All touches of one device at one SYN_REPORT (UIEvent). Touches that ended or were cancelled
/// in this frame are included once with their terminal phase.
public struct TouchFrame: Hashable, Sendable {
    public var device: DeviceRef
    public var time: Timestamp
    public var touches: [Touch]
    /// Surface size in surface units, for regions given in % and for edge zones.
    public var surfaceSize: Point
    /// Surface units per mm (x, y), to convert surface distances to mm.
    public var unitsPerMM: Point
    /// A physical button (BTN_LEFT / RIGHT / MIDDLE) is held down: on a clickpad, the surface is
    /// pressed (a click, not a tap).
    public var physicalButtonDown: Bool
    /// A pen near the glass and not touching it, when that changed in this frame (moved, came, went).
    public var hover: PenHover?

    public init(device: DeviceRef, time: Timestamp, touches: [Touch], surfaceSize: Point, unitsPerMM: Point,
                physicalButtonDown: Bool = false, hover: PenHover? = nil) {
        self.device = device
        self.time = time
        self.touches = touches
        self.surfaceSize = surfaceSize
        self.unitsPerMM = unitsPerMM
        self.physicalButtonDown = physicalButtonDown
        self.hover = hover
    }

    /// Fingers currently on the surface (not ended or cancelled).
    public var activeFingerCount: Int { touches.reduce(0) { $0 + ($1.phase.isTerminal ? 0 : 1) } }
}
