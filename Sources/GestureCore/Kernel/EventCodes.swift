/// An evdev event type (`EV_*` in `linux/input-event-codes.h`). Open: unknown values are kept.
public struct EventType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let syn = EventType(0x00)
    public static let key = EventType(0x01)
    public static let rel = EventType(0x02)
    public static let abs = EventType(0x03)
    public static let msc = EventType(0x04)
    public static let sw = EventType(0x05)

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
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    // EV_SYN
    public static let synReport = EventCode(0)
    public static let synConfig = EventCode(1)
    public static let synMTReport = EventCode(2)
    public static let synDropped = EventCode(3)

    // EV_ABS
    public static let absX = EventCode(0x00)
    public static let absY = EventCode(0x01)
    public static let absPressure = EventCode(0x18)
    public static let absDistance = EventCode(0x19)
    public static let absToolWidth = EventCode(0x1c)
    public static let absMTSlot = EventCode(0x2f)
    public static let absMTTouchMajor = EventCode(0x30)
    public static let absMTTouchMinor = EventCode(0x31)
    public static let absMTWidthMajor = EventCode(0x32)
    public static let absMTWidthMinor = EventCode(0x33)
    public static let absMTOrientation = EventCode(0x34)
    public static let absMTPositionX = EventCode(0x35)
    public static let absMTPositionY = EventCode(0x36)
    public static let absMTToolType = EventCode(0x37)
    public static let absMTBlobID = EventCode(0x38)
    public static let absMTTrackingID = EventCode(0x39)
    public static let absMTPressure = EventCode(0x3a)
    public static let absMTDistance = EventCode(0x3b)
    public static let absMTToolX = EventCode(0x3c)
    public static let absMTToolY = EventCode(0x3d)

    // EV_KEY
    public static let btnLeft = EventCode(0x110)
    public static let btnRight = EventCode(0x111)
    public static let btnMiddle = EventCode(0x112)
    public static let btnToolPen = EventCode(0x140)
    public static let btnToolRubber = EventCode(0x141)
    public static let btnToolFinger = EventCode(0x145)
    public static let btnToolQuintTap = EventCode(0x148)
    public static let btnTouch = EventCode(0x14a)
    public static let btnStylus = EventCode(0x14b)
    public static let btnToolDoubleTap = EventCode(0x14d)
    public static let btnToolTripleTap = EventCode(0x14e)
    public static let btnToolQuadTap = EventCode(0x14f)
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public struct MTToolType: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let finger = MTToolType(rawValue: 0)
    public static let pen = MTToolType(rawValue: 1)
    public static let palm = MTToolType(rawValue: 2)
}

/// An input property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public static let pointer = InputProperty(0)
    public static let direct = InputProperty(1)
    public static let buttonpad = InputProperty(2)
    public static let semiMT = InputProperty(3)
    public static let topButtonpad = InputProperty(4)
}
