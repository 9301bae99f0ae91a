#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GesturePosix

/// The real event source: one evdev node opened through libevdev (the only code that calls it).
final class Libevdev: EvdevEventSource {
    let fd: FileDescriptor
    private let device: OpaquePointer
    private var grabbed = false

    /// Opens `path` O_RDONLY | O_NONBLOCK | O_CLOEXEC.
    init(path: String) throws(SystemCallError) {
        let fd = try retryingOnInterrupt { Errno.result(open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) }.get("open", subject: path)
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &handle)
        guard rc == 0, let handle else {
            LinuxSystemCalls.shared.close(FileDescriptor(rawValue: fd))
            throw SystemCallError("libevdev_new_from_fd", code: -rc, subject: path)
        }
        self.fd = FileDescriptor(rawValue: fd)
        self.device = handle
    }

    deinit {
        if grabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        LinuxSystemCalls.shared.close(fd)
    }

    func nextEvent(_ mode: EvdevReadMode) -> Result<EvdevNextEvent, Errno> {
        var event = input_event()
        let flags = mode == .sync ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let rc = libevdev_next_event(device, flags, &event)
        if rc < 0 {
            let error = Errno(rawValue: -rc)
            // EINVAL: wrong flags or an uninitialized device; only our mistake.
            preconditionNotABug(error, "libevdev_next_event", fd: fd.rawValue, alsoBug: .invalidArgument)
            return .failure(error)
        }
        let raw = RawEvent(time: Timestamp(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
                           type: EventType(event.type), code: EventCode(event.code), value: event.value)
        return .success(rc == LIBEVDEV_READ_STATUS_SYNC.rawValue ? .resync(raw) : .event(raw))
    }

    func useMonotonicClock() -> Result<Void, Errno> {
        Errno.result(negative: libevdev_set_clock_id(device, CLOCK_MONOTONIC)).map { _ in () }
    }

    func grab(_ on: Bool) -> Result<Void, Errno> {
        let result = Errno.result(negative: libevdev_grab(device, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)).map { _ in () }
        if case .success = result { grabbed = on }
        return result
    }

    /// The device's name, ids, properties, event codes and axis ranges.
    func describe(path: String) -> DeviceDescription {
        var properties = Set<InputProperty>()
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(device, property) == 1 {
            properties.insert(InputProperty(UInt16(property)))
        }
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        for type in [EV_SYN, EV_KEY, EV_REL, EV_ABS, EV_MSC, EV_SW].map(UInt32.init)
        where libevdev_has_event_type(device, type) == 1 {
            let maximum = libevdev_event_type_get_max(type)
            guard maximum >= 0 else { continue }
            var set = Set<EventCode>()
            for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) == 1 {
                set.insert(EventCode(UInt16(code)))
                if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(device, code) {
                    absInfo[EventCode(UInt16(code))] = AbsInfo(
                        value: info.pointee.value, minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                        fuzz: info.pointee.fuzz, flat: info.pointee.flat, resolution: info.pointee.resolution)
                }
            }
            codes[EventType(UInt16(type))] = set
        }
        let name = libevdev_get_name(device).map { String(cString: $0) } ?? "unnamed device"
        return DeviceDescription(
            name: name, bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
            properties: properties, codes: codes, absInfo: absInfo, path: path)
    }
}

/// libevdev's name for an event type, e.g. "EV_ABS" (proves the library links).
public enum LibevdevVersion {
    public static var absName: String { String(cString: libevdev_event_type_get_name(UInt32(EV_ABS))) }
}
