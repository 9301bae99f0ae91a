#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GesturePosix

/// One open evdev node read through libevdev, non-blocking. Owned by one thread; not Sendable.
public final class EvdevDevice {
    public let path: String
    public let fd: Int32
    private let device: OpaquePointer
    /// The device as data, for the pipeline.
    public let description: DeviceDescription
    public private(set) var isGrabbed = false

    /// What one `read` found.
    public enum ReadStatus: Equatable, Sendable {
        /// Everything pending was read; wait for the fd to be readable again.
        case drained
        /// The device is gone (ENODEV) or broken; close it.
        case gone(SystemCallError)
    }

    /// Opens `path` O_RDONLY | O_NONBLOCK | O_CLOEXEC and reads its description.
    public init(path: String) throws(SystemCallError) {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemCallError.current("open", subject: path) }
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &handle)
        guard rc == 0, let handle else {
            close(fd)
            throw SystemCallError("libevdev_new_from_fd", code: -rc, subject: path)
        }
        self.path = path
        self.fd = fd
        self.device = handle
        self.description = EvdevDevice.describe(handle, path: path)
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        close(fd)
    }

    /// Makes event timestamps CLOCK_MONOTONIC (EVIOCSCLOCKID), so they compare with timerfd deadlines.
    public func useMonotonicClock() throws(SystemCallError) {
        let rc = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        if rc != 0 { throw SystemCallError("libevdev_set_clock_id", code: -rc, subject: path) }
    }

    /// EVIOCGRAB: no other reader (X, libinput) sees this device's events while grabbed.
    public func grab(_ on: Bool) throws(SystemCallError) {
        let rc = libevdev_grab(device, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
        if rc != 0 { throw SystemCallError("libevdev_grab", code: -rc, subject: path) }
        isGrabbed = on
    }

    /// Reads every pending event into `events`, until libevdev says -EAGAIN (it buffers events
    /// internally, so stopping earlier could leave events that epoll would never report). After
    /// SYN_DROPPED come the SYN_DROPPED event itself, a SYN_REPORT that closes the dropped window
    /// (the frame assembler cancels the touches whose state was lost), then the resync delta libevdev
    /// computes (LIBEVDEV_READ_FLAG_SYNC). The delta is the device's real current state, so it must
    /// reach the assembler as live events: a kernel-style "ignore until SYN_REPORT" would discard
    /// it (a finger lifted during the drop would stay down forever, since libevdev then filters
    /// the kernel's own repeated lift).
    public func read(into events: inout [RawEvent]) -> ReadStatus {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(device, flags, &event)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                events.append(RawEvent(
                    time: Timestamp(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
                    type: EventType(event.type), code: EventCode(event.code), value: event.value))
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue && flags != LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // SYN_DROPPED: close the dropped window, then read the sync delta until -EAGAIN.
                    events.append(RawEvent(time: events[events.count - 1].time, type: .syn, code: .synReport, value: 0))
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
                continue
            }
            if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // Sync delta done; continue normally.
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            }
            if rc == -EINTR { continue }
            return .gone(SystemCallError("libevdev_next_event", code: -rc, subject: path))
        }
    }

    static func describe(_ device: OpaquePointer, path: String) -> DeviceDescription {
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
