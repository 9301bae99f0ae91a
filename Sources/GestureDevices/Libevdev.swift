#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GesturePosix

/// The real event source: one evdev node opened, described, grabbed and resynchronised through
/// libevdev (the only code that calls it) and read with `read(2)`.
final class Libevdev: EvdevEventSource {
    let fd: FileDescriptor
    private let device: OpaquePointer
    private var grabbed = false
    /// Where `read(2)` puts the kernel's `input_event`s; grown to the largest capacity asked.
    /// Allocated once the device is open (a failed open leaves nothing behind).
    private var readBuffer: UnsafeMutableBufferPointer<input_event>
    /// The device's name, ids, properties, event codes and axis ranges, read at opening.
    let description: DeviceDescription
    /// The device's codes sorted for the state frame after SYN_DROPPED (`currentState`).
    private let stateFrame: DeviceStateFrame

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
        description = Self.describe(handle, path: path)
        stateFrame = DeviceStateFrame(description: description)
        readBuffer = .allocate(capacity: EvdevDevice.readCapacity)
    }

    deinit {
        if grabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        readBuffer.deallocate()
        LinuxSystemCalls.shared.close(fd)
    }

    func readEvents(into events: inout [RawEvent], capacity: Int) -> Result<Int, Errno> {
        if readBuffer.count < capacity {
            readBuffer.deallocate()
            readBuffer = .allocate(capacity: capacity)
        }
        let size = MemoryLayout<input_event>.stride
        let rc = Glibc.read(fd.rawValue, readBuffer.baseAddress, capacity * size)
        if rc < 0 {
            let error = Errno.current
            // EBADF, EFAULT; EINVAL (a buffer smaller than one event): only our mistake.
            preconditionNotABug(error, "read", fd: fd.rawValue, alsoBug: .invalidArgument)
            return .failure(error)
        }
        // evdev returns whole events, never 0 bytes for a buffer that holds one.
        let count = rc / size
        for index in 0..<count {
            let event = readBuffer[index]
            events.append(RawEvent(time: Timestamp(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
                                   type: EventType(event.type), code: EventCode(event.code), value: event.value))
        }
        return count > 0 ? .success(count) : .failure(.wouldBlock)
    }

    /// A second libevdev over the same descriptor reads every axis, slot and key afresh (its
    /// `EVIOCG*` calls); this one's cached state is as old as the device's opening, since events
    /// are read past it.
    func currentState(at time: Timestamp) -> Result<[RawEvent], Errno> {
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd.rawValue, &handle)
        guard rc == 0, let handle else { return .failure(Errno(rawValue: -rc)) }
        defer { libevdev_free(handle) }
        return .success(stateFrame.events(
            at: time, slotCount: max(0, Int(libevdev_get_num_slots(handle))),
            currentSlot: libevdev_get_current_slot(handle),
            slotValue: { libevdev_get_slot_value(handle, UInt32($0), UInt32($1.rawValue)) },
            absoluteValue: { libevdev_get_event_value(handle, UInt32(EV_ABS), UInt32($0.rawValue)) },
            keyValue: { libevdev_get_event_value(handle, UInt32(EV_KEY), UInt32($0.rawValue)) }))
    }

    func useMonotonicClock() -> Result<Void, Errno> {
        Errno.result(negative: libevdev_set_clock_id(device, CLOCK_MONOTONIC)).map { _ in () }
    }

    var libevdevHandle: OpaquePointer? { device }

    func grab(_ on: Bool) -> Result<Void, Errno> {
        let result = Errno.result(negative: libevdev_grab(device, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)).map { _ in () }
        if case .success = result { grabbed = on }
        return result
    }

    /// The device's name, ids, properties, event codes and axis ranges.
    private static func describe(_ device: OpaquePointer, path: String) -> DeviceDescription {
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
        var description = DeviceDescription(
            name: name, bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
            properties: properties, codes: codes, absInfo: absInfo, path: path)
        description.knowsAxisValues = true
        // Which devices are siblings of one panel (a pen and its fingers): DeviceSiblings.
        description.physicalPath = libevdev_get_phys(device).map { String(cString: $0) }
        return description
    }
}

/// libevdev's name for an event type, e.g. "EV_ABS" (proves the library links).
public enum LibevdevVersion {
    public static var absName: String { String(cString: libevdev_event_type_get_name(UInt32(EV_ABS))) }
}
