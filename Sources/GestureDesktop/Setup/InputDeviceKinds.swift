/// Which kinds of touch device a machine has, read from the kernel's list of input devices
/// (`/proc/bus/input/devices`): what `gesturectl setup` writes a config for. The daemon decides
/// for itself which devices it opens (udev, then the evdev properties); this is the same evdev
/// test, enough to know whether there is a touchscreen to write edge swipes for.
public struct InputDeviceKinds: Equatable, Sendable {
    public var touchpad: Bool
    public var touchscreen: Bool

    public init(touchpad: Bool, touchscreen: Bool) {
        self.touchpad = touchpad
        self.touchscreen = touchscreen
    }

    public static let both = InputDeviceKinds(touchpad: true, touchscreen: true)
    public var isEmpty: Bool { !touchpad && !touchscreen }

    /// The kinds in `/proc/bus/input/devices` text: a device with a multi-touch or single-touch
    /// position and `BTN_TOUCH` is a touchscreen when the kernel marks it direct
    /// (`INPUT_PROP_DIRECT`) and has no pen tool, a touchpad when it has `BTN_TOOL_FINGER` and is
    /// not direct (as udev's `input_id` tells them apart).
    public static func parse(procDevices text: String) -> InputDeviceKinds {
        var kinds = InputDeviceKinds(touchpad: false, touchscreen: false)
        for block in text.split(separator: "\n\n", omittingEmptySubsequences: true) {
            var bits: [String: [UInt64]] = [:]
            for line in block.split(separator: "\n") where line.hasPrefix("B: ") {
                let rest = line.dropFirst(3)
                guard let equals = rest.firstIndex(of: "=") else { continue }
                let words = rest[rest.index(after: equals)...].split(separator: " ").compactMap { UInt64($0, radix: 16) }
                bits[String(rest[..<equals])] = words
            }
            func has(_ name: String, _ bit: Int) -> Bool {
                guard let words = bits[name] else { return false }
                // The kernel prints the bitmap's longs most significant first.
                let index = words.count - 1 - bit / 64
                return index >= 0 && words[index] & (1 << UInt64(bit % 64)) != 0
            }
            let absX = 0x00, mtPositionX = 0x35
            let btnToolPen = 0x140, btnToolFinger = 0x145, btnTouch = 0x14a
            let propDirect = 1
            let positioned = has("ABS", mtPositionX) || has("ABS", absX)
            guard positioned, has("KEY", btnTouch) || has("KEY", btnToolFinger) else { continue }
            if has("PROP", propDirect) {
                if !has("KEY", btnToolPen) && has("KEY", btnTouch) { kinds.touchscreen = true }
            } else if has("KEY", btnToolFinger) {
                kinds.touchpad = true
            }
        }
        return kinds
    }

    /// "a touchpad and a touchscreen", "a touchpad", "no touchpad or touchscreen".
    public var phrase: String {
        switch (touchpad, touchscreen) {
        case (true, true): "a touchpad and a touchscreen"
        case (true, false): "a touchpad"
        case (false, true): "a touchscreen"
        case (false, false): "no touchpad or touchscreen"
        }
    }
}
