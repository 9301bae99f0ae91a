#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GesturePosix

/// One key event of a virtual keyboard: a press or a release.
public struct KeyStroke: Hashable, Sendable {
    public var code: UInt16
    public var pressed: Bool
    public init(code: UInt16, pressed: Bool) {
        self.code = code
        self.pressed = pressed
    }
}

/// The daemon's virtual keyboard: an input device created through libevdev's uinput API
/// (`libevdev_uinput_create_from_device`) declaring exactly the given key codes, so the keys it
/// sends reach Wayland compositors, X11 and the console like any keyboard's. Mouse buttons
/// (BTN_LEFT...BTN_TASK) among the codes also declare REL_X / REL_Y and BTN_LEFT: udev calls a
/// device a mouse only with both, and no desktop takes clicks from a device that is not a pointer
/// (the axes never move; BTN_LEFT is only sent when configured).
/// Writing to uinput never blocks. Owned by one thread; not Sendable.
public final class VirtualKeyboard {
    /// The device name; udev/70-gestured.rules matches it.
    public static let deviceName = "gestured virtual keyboard"
    /// Where the uinput device node usually is.
    public static let defaultUinputPath = "/dev/uinput"

    public let keys: Set<UInt16>
    /// /dev/input/eventN of the created device, when libevdev could find it.
    public let devnode: String?
    private let fd: Int32
    private let device: OpaquePointer
    private let uinput: OpaquePointer

    /// Opens `uinputPath` and creates the device. Throws the failing call with its errno: `open`
    /// for a missing node (ENOENT: the uinput module is not loaded) or missing permission
    /// (EACCES, or EPERM from a service's device policy).
    public init(keys: Set<UInt16>, uinputPath: String = VirtualKeyboard.defaultUinputPath) throws(SystemCallError) {
        let fd = try retryingOnInterrupt { Errno.result(open(uinputPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)) }
            .get("open", subject: uinputPath)
        guard let device = libevdev_new() else {
            LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
            throw SystemCallError("libevdev_new", code: ENOMEM, subject: uinputPath)
        }
        libevdev_set_name(device, Self.deviceName)
        libevdev_set_id_bustype(device, Int32(BUS_VIRTUAL))
        libevdev_enable_event_type(device, UInt32(EV_KEY))
        for code in keys.sorted() {
            libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(code), nil)
        }
        if keys.contains(where: { (UInt16(BTN_LEFT)...UInt16(BTN_TASK)).contains($0) }) {
            libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_LEFT), nil)
            libevdev_enable_event_type(device, UInt32(EV_REL))
            libevdev_enable_event_code(device, UInt32(EV_REL), UInt32(REL_X), nil)
            libevdev_enable_event_code(device, UInt32(EV_REL), UInt32(REL_Y), nil)
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, fd, &created)
        guard rc == 0, let created else {
            libevdev_free(device)
            LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
            throw SystemCallError("libevdev_uinput_create_from_device", code: -rc, subject: uinputPath)
        }
        self.keys = keys
        self.fd = fd
        self.device = device
        self.uinput = created
        self.devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(device)
        LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
    }

    /// Writes each stroke as its own frame (the key event, then SYN_REPORT). A code the device
    /// does not declare would be dropped by the kernel, so the whole list is refused (EINVAL) before
    /// anything is written. If a write fails midway, the keys still down are released (best effort),
    /// so no key stays pressed.
    public func send(_ strokes: [KeyStroke]) throws(SystemCallError) {
        if let unknown = strokes.first(where: { !keys.contains($0.code) }) {
            throw SystemCallError("libevdev_uinput_write_event", code: EINVAL, subject: "key \(unknown.code)")
        }
        var down: [UInt16] = []
        for stroke in strokes {
            let rc = write(stroke)
            if rc != 0 {
                for code in down.reversed() { _ = write(KeyStroke(code: code, pressed: false)) }
                throw SystemCallError("libevdev_uinput_write_event", code: -rc, subject: devnode ?? Self.deviceName)
            }
            if stroke.pressed { down.append(stroke.code) } else { down.removeAll { $0 == stroke.code } }
        }
    }

    /// One key event and its SYN_REPORT; 0 or a negative errno.
    private func write(_ stroke: KeyStroke) -> Int32 {
        let rc = libevdev_uinput_write_event(uinput, UInt32(EV_KEY), UInt32(stroke.code), stroke.pressed ? 1 : 0)
        return rc != 0 ? rc : libevdev_uinput_write_event(uinput, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
    }

    /// libevdev's code for a kernel key name (`KEY_LEFTCTRL`), or nil: for cross-checking the
    /// config's key table, which is generated from the kernel header.
    public static func libevdevCode(named name: String) -> UInt16? {
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
        return code >= 0 ? UInt16(code) : nil
    }

    /// libevdev's name for a key code, or nil when its table (older than the kernel's) has none.
    public static func libevdevName(of code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)).map { String(cString: $0) }
    }
}
