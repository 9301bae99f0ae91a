#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GesturePosix

/// Where a forwarded device's events go: its clone (tests put a recorder here).
public protocol TouchClone: AnyObject {
    /// /dev/input/eventN of the clone, when known.
    var devnode: String? { get }
    /// Writes events (whole frames, each ending in SYN_REPORT) to the clone.
    func write(_ events: [RawEvent]) throws(SystemCallError)
}

/// A forwarded device's clone: a uinput device made with libevdev's uinput API
/// (`libevdev_uinput_create_from_device`) from the real device's libevdev handle, so it has the same
/// name, bus, vendor, product and version, properties (INPUT_PROP_BUTTONPAD, …), axes with their
/// ranges and resolution, slot count and keys: the compositor or X treats it as the device it
/// replaces. Its `phys` is `gestured-clone:` and the real device's phys (set with `UI_SET_PHYS`
/// before creation: libevdev sends none), so no gestured opens it.
/// Destroyed (`libevdev_uinput_destroy`) on deinit; if the process dies, the kernel removes it when
/// the uinput descriptor closes. Owned by one thread; not Sendable.
public final class DeviceClone: TouchClone {
    /// The prefix of every clone's `phys` (`EvdevDevice.phys`).
    public static let physPrefix = "gestured-clone:"

    public let devnode: String?
    public let syspath: String?
    private let fd: Int32
    private let uinput: OpaquePointer
    private var buffer: [input_event] = []

    init(source device: OpaquePointer, uinputPath: String) throws(SystemCallError) {
        let fd = try retryingOnInterrupt { Errno.result(open(uinputPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)) }
            .get("open", subject: uinputPath)
        let phys = libevdev_get_phys(device).map { String(cString: $0) } ?? ""
        // Before the device is created (libevdev's uinput API does not send a phys); a kernel
        // without UI_SET_PHYS leaves the clone unmarked, and this daemon still knows its node.
        _ = gestured_uinput_set_phys(fd, Self.physPrefix + phys)
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, fd, &created)
        guard rc == 0, let created else {
            LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
            throw SystemCallError("libevdev_uinput_create_from_device", code: -rc, subject: uinputPath)
        }
        self.fd = fd
        uinput = created
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
        syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
        buffer.reserveCapacity(64)
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
    }

    /// One `write(2)` for the whole batch (uinput takes whole `input_event`s; the kernel stamps the time).
    public func write(_ events: [RawEvent]) throws(SystemCallError) {
        guard !events.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for e in events {
            buffer.append(input_event(time: timeval(tv_sec: 0, tv_usec: 0), type: e.type.rawValue, code: e.code.rawValue,
                                      value: e.value))
        }
        let size = MemoryLayout<input_event>.stride * buffer.count
        let fd = self.fd
        let rc = buffer.withUnsafeBytes { bytes in
            retryingOnInterrupt { Errno.result(Glibc.write(fd, bytes.baseAddress, size)) }
        }
        _ = try rc.get("write", subject: devnode ?? "uinput clone")
    }
}

extension EvdevDevice {
    /// Makes this device's clone (`DeviceClone`): throws the failing call with its errno (`open` of
    /// `uinputPath`: ENOENT when the uinput module is not loaded, EACCES / EPERM without permission).
    public func makeClone(uinputPath: String = VirtualKeyboard.defaultUinputPath) throws(SystemCallError) -> DeviceClone {
        guard let handle = source.libevdevHandle else {
            throw SystemCallError("libevdev_uinput_create_from_device", code: ENOTSUP, subject: path)
        }
        return try DeviceClone(source: handle, uinputPath: uinputPath)
    }

    /// The device's `phys` (where it is connected); a clone's starts with `DeviceClone.physPrefix`.
    public var phys: String { source.libevdevHandle.flatMap { libevdev_get_phys($0) }.map { String(cString: $0) } ?? "" }
}
