/// The kernel's names of the absolute axes (`ABS_*` in linux/input-event-codes.h), for messages and
/// for the config's `axes:` setting.
public enum AbsoluteAxisNames {
    /// Every named axis, in code order.
    public static let all: [(name: String, code: EventCode)] = [
        ("ABS_X", EventCode(0x00)), ("ABS_Y", EventCode(0x01)), ("ABS_Z", EventCode(0x02)),
        ("ABS_RX", EventCode(0x03)), ("ABS_RY", EventCode(0x04)), ("ABS_RZ", EventCode(0x05)),
        ("ABS_THROTTLE", EventCode(0x06)), ("ABS_RUDDER", EventCode(0x07)), ("ABS_WHEEL", EventCode(0x08)),
        ("ABS_GAS", EventCode(0x09)), ("ABS_BRAKE", EventCode(0x0a)),
        ("ABS_HAT0X", EventCode(0x10)), ("ABS_HAT0Y", EventCode(0x11)), ("ABS_HAT1X", EventCode(0x12)),
        ("ABS_HAT1Y", EventCode(0x13)), ("ABS_HAT2X", EventCode(0x14)), ("ABS_HAT2Y", EventCode(0x15)),
        ("ABS_HAT3X", EventCode(0x16)), ("ABS_HAT3Y", EventCode(0x17)),
        ("ABS_PRESSURE", EventCode(0x18)), ("ABS_DISTANCE", EventCode(0x19)), ("ABS_TILT_X", EventCode(0x1a)),
        ("ABS_TILT_Y", EventCode(0x1b)), ("ABS_TOOL_WIDTH", EventCode(0x1c)),
        ("ABS_VOLUME", EventCode(0x20)), ("ABS_PROFILE", EventCode(0x21)), ("ABS_MISC", EventCode(0x28)),
        ("ABS_MT_SLOT", EventCode(0x2f)), ("ABS_MT_TOUCH_MAJOR", EventCode(0x30)),
        ("ABS_MT_TOUCH_MINOR", EventCode(0x31)), ("ABS_MT_WIDTH_MAJOR", EventCode(0x32)),
        ("ABS_MT_WIDTH_MINOR", EventCode(0x33)), ("ABS_MT_ORIENTATION", EventCode(0x34)),
        ("ABS_MT_POSITION_X", EventCode(0x35)), ("ABS_MT_POSITION_Y", EventCode(0x36)),
        ("ABS_MT_TOOL_TYPE", EventCode(0x37)), ("ABS_MT_BLOB_ID", EventCode(0x38)),
        ("ABS_MT_TRACKING_ID", EventCode(0x39)), ("ABS_MT_PRESSURE", EventCode(0x3a)),
        ("ABS_MT_DISTANCE", EventCode(0x3b)), ("ABS_MT_TOOL_X", EventCode(0x3c)), ("ABS_MT_TOOL_Y", EventCode(0x3d)),
    ]

    /// `ABS_Z` for 0x02; `ABS_0x2a` for a code without a name.
    public static func name(of code: EventCode) -> String {
        for entry in all where entry.code == code { return entry.name }
        let digits = String(code.rawValue, radix: 16)
        return "ABS_0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    /// The code of `ABS_Z` (case as the kernel writes it), nil for an unknown name.
    public static func code(named name: String) -> EventCode? {
        for entry in all where entry.name == name { return entry.code }
        return nil
    }
}
