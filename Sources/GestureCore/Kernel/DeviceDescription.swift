/// The range of one absolute axis (`struct input_absinfo`). Resolution is in units per mm
/// (units per radian for orientation); 0 means the device did not say.
public struct AbsInfo: Hashable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What kind of touch device this is, as far as gestures are concerned.
public enum DeviceKind: String, Sendable, Hashable, CaseIterable {
    /// Direct touch: positions are on the display (INPUT_PROP_DIRECT, or ID_INPUT_TOUCHSCREEN).
    case touchscreen
    /// Indirect touch: a touchpad (INPUT_PROP_POINTER / BUTTONPAD, or ID_INPUT_TOUCHPAD).
    case touchpad
    /// A drawing tablet's finger interface (direct or not, but neither a screen nor a touchpad by udev).
    case tablet
    /// Not a touch device we handle.
    case other
}

/// Which multitouch protocol the device speaks.
public enum MultitouchProtocol: String, Sendable, Hashable {
    /// Slots and tracking ids (ABS_MT_SLOT).
    case typeB = "B"
    /// Anonymous contacts separated by SYN_MT_REPORT (ABS_MT_POSITION_* without ABS_MT_SLOT).
    case typeA = "A"
    /// One contact: ABS_X / ABS_Y with BTN_TOUCH.
    case singleTouch = "single-touch"
}

/// A device described as data: name, ids, properties, supported codes and axis ranges.
/// Built from libevdev for live devices and from a recording's header for replay, so the same
/// pipeline runs on both.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var properties: Set<InputProperty>
    /// Supported codes per event type.
    public var codes: [EventType: Set<EventCode>]
    /// Axis ranges of every supported EV_ABS code.
    public var absInfo: [EventCode: AbsInfo]
    /// Device node or recording path, for messages.
    public var path: String?
    /// `absInfo`'s values are the device's current state (read from a live device), not unknown (a
    /// recording's header carries ranges only): a single-touch position nobody has reported yet is then
    /// known (docs/input.md, "Positions never reported").
    public var knowsAxisValues = false
    /// The kernel's physical path of a live device (EVIOCGPHYS, `usb-0000:00:14.0-7/input1`), nil for a
    /// recording: which devices are siblings sharing one surface (`DeviceSiblings`).
    public var physicalPath: String?
    /// libinput's quirks for this device (`DeviceQuirks`), nil when none were read (a recording
    /// replayed without them, a test): its touches are then told and measured without them.
    public var quirks: DeviceQuirks?

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                properties: Set<InputProperty> = [], codes: [EventType: Set<EventCode>] = [:],
                absInfo: [EventCode: AbsInfo] = [:], path: String? = nil) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.path = path
    }

    public func supports(_ type: EventType, _ code: EventCode) -> Bool {
        codes[type]?.contains(code) ?? false
    }
    public func has(_ property: InputProperty) -> Bool { properties.contains(property) }

    public var multitouchProtocol: MultitouchProtocol {
        if absInfo[.absMTSlot] != nil || supports(.abs, .absMTSlot) { return .typeB }
        if absInfo[.absMTPositionX] != nil { return .typeA }
        return .singleTouch
    }

    /// Number of slots for protocol B (ABS_MT_SLOT maximum + 1), else 1.
    public var slotCount: Int {
        guard let slot = absInfo[.absMTSlot] else { return 1 }
        return max(1, Int(slot.maximum) + 1)
    }

    /// Classification from evdev capabilities alone (udev properties may refine it in the device layer).
    public var kind: DeviceKind {
        let hasPosition = absInfo[.absMTPositionX] != nil || absInfo[.absX] != nil
        let hasTouch = supports(.key, .btnTouch) || absInfo[.absMTPositionX] != nil
        guard hasPosition, hasTouch else { return .other }
        if supports(.key, .btnToolPen) && !supports(.key, .btnToolFinger) && absInfo[.absMTPositionX] == nil {
            // A pen interface works as the surface it covers: a screen's (direct) or a tablet's.
            // Something that claims a pen without a pen's pressure or barrel button (an eGalax
            // controller with a broken descriptor) is no touch device until the config says so.
            guard isPenInterface else { return .other }
            return has(.direct) ? .touchscreen : .tablet
        }
        if has(.direct) { return .touchscreen }
        if has(.pointer) || has(.buttonpad) || has(.semiMT) || supports(.key, .btnToolFinger) {
            return .touchpad
        }
        // No property at all: old touchscreens (no BTN_TOOL_FINGER, absolute MT) are direct.
        return .touchscreen
    }

    /// A pen (stylus) interface: BTN_TOOL_PEN or BTN_TOOL_RUBBER with BTN_TOUCH, a pen's pressure or
    /// barrel button, and no finger tool or multitouch axes (docs/input.md, "Pens"). Its contacts are
    /// touches of type `pen` / `eraser` (`PenTracker`).
    public var isPenInterface: Bool {
        (supports(.key, .btnToolPen) || supports(.key, .btnToolRubber)) && supports(.key, .btnTouch)
            && !supports(.key, .btnToolFinger) && absInfo[.absMTPositionX] == nil
            && (absInfo[.absPressure] != nil || supports(.key, .btnStylus))
    }
}
