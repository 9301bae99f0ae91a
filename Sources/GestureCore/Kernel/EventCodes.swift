/// An evdev event type (`EV_*` in `linux/input-event-codes.h`). Open: unknown values are kept.
///
/// The named values here are inlinable computed constants, not stored `static let`s: other modules
/// (the device layer reads every event) then compare raw numbers in place instead of calling the
/// one-time initialiser's accessor of each constant.
public struct EventType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    @inlinable public static var syn: EventType { EventType(0x00) }
    @inlinable public static var key: EventType { EventType(0x01) }
    @inlinable public static var rel: EventType { EventType(0x02) }
    @inlinable public static var abs: EventType { EventType(0x03) }
    @inlinable public static var msc: EventType { EventType(0x04) }
    @inlinable public static var sw: EventType { EventType(0x05) }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String {
        switch self {
        case .syn: "EV_SYN"
        case .key: "EV_KEY"
        case .rel: "EV_REL"
        case .abs: "EV_ABS"
        case .msc: "EV_MSC"
        case .sw: "EV_SW"
        default: "EV_\(rawValue)"
        }
    }
}

/// An evdev event code; its meaning depends on the `EventType` it comes with. Open: unknown values are kept.
public struct EventCode: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    // EV_SYN
    @inlinable public static var synReport: EventCode { EventCode(0) }
    @inlinable public static var synConfig: EventCode { EventCode(1) }
    @inlinable public static var synMTReport: EventCode { EventCode(2) }
    @inlinable public static var synDropped: EventCode { EventCode(3) }

    // EV_ABS
    @inlinable public static var absX: EventCode { EventCode(0x00) }
    @inlinable public static var absY: EventCode { EventCode(0x01) }
    @inlinable public static var absPressure: EventCode { EventCode(0x18) }
    @inlinable public static var absDistance: EventCode { EventCode(0x19) }
    @inlinable public static var absTiltX: EventCode { EventCode(0x1a) }
    @inlinable public static var absTiltY: EventCode { EventCode(0x1b) }
    @inlinable public static var absToolWidth: EventCode { EventCode(0x1c) }
    @inlinable public static var absMTSlot: EventCode { EventCode(0x2f) }
    @inlinable public static var absMTTouchMajor: EventCode { EventCode(0x30) }
    @inlinable public static var absMTTouchMinor: EventCode { EventCode(0x31) }
    @inlinable public static var absMTWidthMajor: EventCode { EventCode(0x32) }
    @inlinable public static var absMTWidthMinor: EventCode { EventCode(0x33) }
    @inlinable public static var absMTOrientation: EventCode { EventCode(0x34) }
    @inlinable public static var absMTPositionX: EventCode { EventCode(0x35) }
    @inlinable public static var absMTPositionY: EventCode { EventCode(0x36) }
    @inlinable public static var absMTToolType: EventCode { EventCode(0x37) }
    @inlinable public static var absMTBlobID: EventCode { EventCode(0x38) }
    @inlinable public static var absMTTrackingID: EventCode { EventCode(0x39) }
    @inlinable public static var absMTPressure: EventCode { EventCode(0x3a) }
    @inlinable public static var absMTDistance: EventCode { EventCode(0x3b) }
    @inlinable public static var absMTToolX: EventCode { EventCode(0x3c) }
    @inlinable public static var absMTToolY: EventCode { EventCode(0x3d) }

    // EV_KEY
    @inlinable public static var btnLeft: EventCode { EventCode(0x110) }
    @inlinable public static var btnRight: EventCode { EventCode(0x111) }
    @inlinable public static var btnMiddle: EventCode { EventCode(0x112) }
    @inlinable public static var btnToolPen: EventCode { EventCode(0x140) }
    @inlinable public static var btnToolRubber: EventCode { EventCode(0x141) }
    @inlinable public static var btnToolBrush: EventCode { EventCode(0x142) }
    @inlinable public static var btnToolPencil: EventCode { EventCode(0x143) }
    @inlinable public static var btnToolAirbrush: EventCode { EventCode(0x144) }
    @inlinable public static var btnToolFinger: EventCode { EventCode(0x145) }
    @inlinable public static var btnToolQuintTap: EventCode { EventCode(0x148) }
    @inlinable public static var btnTouch: EventCode { EventCode(0x14a) }
    @inlinable public static var btnStylus3: EventCode { EventCode(0x149) }
    @inlinable public static var btnStylus: EventCode { EventCode(0x14b) }
    @inlinable public static var btnStylus2: EventCode { EventCode(0x14c) }
    @inlinable public static var btnToolDoubleTap: EventCode { EventCode(0x14d) }
    @inlinable public static var btnToolTripleTap: EventCode { EventCode(0x14e) }
    @inlinable public static var btnToolQuadTap: EventCode { EventCode(0x14f) }
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public struct MTToolType: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }
    @inlinable public static var finger: MTToolType { MTToolType(rawValue: 0) }
    @inlinable public static var pen: MTToolType { MTToolType(rawValue: 1) }
    @inlinable public static var palm: MTToolType { MTToolType(rawValue: 2) }
}

/// An input property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    @inlinable public static var pointer: InputProperty { InputProperty(0) }
    @inlinable public static var direct: InputProperty { InputProperty(1) }
    @inlinable public static var buttonpad: InputProperty { InputProperty(2) }
    @inlinable public static var semiMT: InputProperty { InputProperty(3) }
    @inlinable public static var topButtonpad: InputProperty { InputProperty(4) }
}
