/// What touches the surface (UITouch.TouchType): a finger, or a pen's tip, or its eraser end. Its raw
/// value is the config's word (`touch-types:`) and the protocol's (`kind` on a touch line).
public enum TouchType: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case finger, pen, eraser
}

/// The touch types a recognizer takes (UIGestureRecognizer.allowedTouchTypes), as bits.
public struct TouchTypes: OptionSet, Sendable, Hashable, BitwiseCopyable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let finger = TouchTypes(rawValue: 1)
    public static let pen = TouchTypes(rawValue: 2)
    public static let eraser = TouchTypes(rawValue: 4)

    public init(_ type: TouchType) {
        switch type {
        case .finger: self = .finger
        case .pen: self = .pen
        case .eraser: self = .eraser
        }
    }

    @inline(__always)
    public func allows(_ type: TouchType) -> Bool { contains(TouchTypes(type)) }

    /// The types in `TouchType.allCases` order.
    public var types: [TouchType] { TouchType.allCases.filter { allows($0) } }
}

/// A pen's barrel buttons held (BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3): the config's and the protocol's
/// words are `stylus`, `stylus2`, `stylus3`, as the kernel names them.
public struct StylusButtons: OptionSet, Sendable, Hashable, BitwiseCopyable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let stylus = StylusButtons(rawValue: 1)
    public static let stylus2 = StylusButtons(rawValue: 2)
    public static let stylus3 = StylusButtons(rawValue: 4)

    /// Each button with its word, in order.
    public static let named: [(name: String, button: StylusButtons)] =
        [("stylus", .stylus), ("stylus2", .stylus2), ("stylus3", .stylus3)]

    /// The words of the buttons held, in order.
    public var names: [String] { Self.named.filter { contains($0.button) }.map(\.name) }

    /// The button a word names, or nil.
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.button
    }
}

/// How near the pen of a device (or of a sibling device sharing its surface) is: what palm
/// rejection looks at (`PalmRejection`).
public enum PenProximity: Int, Sendable, Hashable, Comparable, BitwiseCopyable {
    /// No pen in range.
    case away = 0
    /// A pen in range, not touching (hover).
    case near = 1
    /// A pen touching the surface.
    case down = 2
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A pen near the glass and not touching it (hover, as UIHoverGestureRecognizer sees it): carried by
/// the frame, bound to no recognizer, published on the touch stream of the region under it
/// (docs/protocol.md, "Pens").
public struct PenHover: Hashable, Sendable {
    public enum Phase: String, Sendable, Hashable {
        /// In range and not touching, at this place (the first line of a hover, or it moved).
        case hovering
        /// Left the range (the pen went away). A pen touching down does not end its hover.
        case ended = "hover-ended"
    }
    /// One id per stay in range; a contact made meanwhile gets its own touch id.
    public var id: TouchID
    public var phase: Phase
    public var type: TouchType
    public var location: Point
    public var physicalLocation: Point
    /// ABS_DISTANCE normalised 0 (at the glass) … 1 (the farthest it reports), where known.
    public var distance: Double?
    public var altitudeAngle: Double?
    public var azimuthAngle: Double?
    public var buttons: StylusButtons

    public init(id: TouchID, phase: Phase, type: TouchType, location: Point, physicalLocation: Point,
                distance: Double? = nil, altitudeAngle: Double? = nil, azimuthAngle: Double? = nil,
                buttons: StylusButtons = []) {
        self.id = id
        self.phase = phase
        self.type = type
        self.location = location
        self.physicalLocation = physicalLocation
        self.distance = distance
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.buttons = buttons
    }
}
