import CLibudev
import GestureCore
import GesturePosix

/// What udev says about one input device node.
public struct UdevDeviceInfo: Hashable, Sendable {
    /// `/dev/input/eventN`.
    public var devnode: String
    public var syspath: String
    /// From ID_INPUT_TOUCHSCREEN / ID_INPUT_TOUCHPAD / ID_INPUT_TABLET; nil when none is set.
    public var kindHint: DeviceKind?
    /// ID_INPUT=1 is set: udev's input_id ran, so a device without a touch property is not ours.
    public var classifiedByUdev: Bool

    public init(devnode: String, syspath: String, kindHint: DeviceKind?, classifiedByUdev: Bool) {
        self.devnode = devnode
        self.syspath = syspath
        self.kindHint = kindHint
        self.classifiedByUdev = classifiedByUdev
    }

    /// Worth opening: udev calls it a touch device, or udev did not classify it at all
    /// (containers, no udevd), in which case the evdev capabilities decide.
    public var isCandidate: Bool { kindHint != nil || !classifiedByUdev }
}

/// A libudev context. Owned by one thread (the daemon's event loop); not Sendable.
public final class Udev {
    let handle: OpaquePointer

    public init() throws(SystemCallError) {
        guard let handle = udev_new() else { throw SystemCallError.current("udev_new") }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// Every `eventN` node of the input subsystem, with udev's classification.
    public func inputDevices() throws(SystemCallError) -> [UdevDeviceInfo] {
        guard let enumerate = udev_enumerate_new(handle) else { throw SystemCallError.current("udev_enumerate_new") }
        defer { udev_enumerate_unref(enumerate) }
        var rc = udev_enumerate_add_match_subsystem(enumerate, "input")
        if rc < 0 { throw SystemCallError("udev_enumerate_add_match_subsystem", code: -rc) }
        rc = udev_enumerate_scan_devices(enumerate)
        if rc < 0 { throw SystemCallError("udev_enumerate_scan_devices", code: -rc) }
        var result: [UdevDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
               let device = udev_device_new_from_syspath(handle, syspath) {
                if let info = Udev.info(device) { result.append(info) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return result.sorted { $0.devnode.localizedStandardLess($1.devnode) }
    }

    static func property(_ device: OpaquePointer, _ name: String) -> String? {
        guard let value = udev_device_get_property_value(device, name) else { return nil }
        return String(cString: value)
    }

    static func info(_ device: OpaquePointer) -> UdevDeviceInfo? {
        guard let node = udev_device_get_devnode(device) else { return nil }
        let devnode = String(cString: node)
        guard devnode.hasPrefix("/dev/input/event") else { return nil }
        let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        var hint: DeviceKind?
        if property(device, "ID_INPUT_TOUCHSCREEN") == "1" {
            hint = .touchscreen
        } else if property(device, "ID_INPUT_TOUCHPAD") == "1" {
            hint = .touchpad
        } else if property(device, "ID_INPUT_TABLET") == "1" {
            hint = .tablet
        }
        return UdevDeviceInfo(devnode: devnode, syspath: syspath, kindHint: hint,
                              classifiedByUdev: property(device, "ID_INPUT") == "1")
    }
}

extension String {
    /// eventN nodes in numeric order (event2 before event10).
    func localizedStandardLess(_ other: String) -> Bool {
        let a = Int(self.drop { !$0.isNumber }) ?? -1
        let b = Int(other.drop { !$0.isNumber }) ?? -1
        return a == b ? self < other : a < b
    }
}

/// A hot-plug event from the udev monitor.
public enum UdevEvent: Hashable, Sendable {
    case added(UdevDeviceInfo)
    case removed(devnode: String)
}

/// The udev netlink monitor for the input subsystem. Its `fd` is non-blocking, for epoll.
public final class UdevMonitor {
    private let udev: Udev
    private let monitor: OpaquePointer
    public let fd: Int32

    public init(udev: Udev) throws(SystemCallError) {
        self.udev = udev
        guard let monitor = udev_monitor_new_from_netlink(udev.handle, "udev") else {
            throw SystemCallError.current("udev_monitor_new_from_netlink")
        }
        var rc = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        if rc >= 0 { rc = udev_monitor_enable_receiving(monitor) }
        if rc < 0 {
            udev_monitor_unref(monitor)
            throw SystemCallError("udev_monitor_enable_receiving", code: -rc)
        }
        self.monitor = monitor
        self.fd = udev_monitor_get_fd(monitor)
    }

    deinit { udev_monitor_unref(monitor) }

    /// Every pending hot-plug event of an event node (never blocks).
    public func drain() -> [UdevEvent] {
        var events: [UdevEvent] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            switch action {
            case "add", "change":
                if let info = Udev.info(device) { events.append(.added(info)) }
            case "remove":
                if let node = udev_device_get_devnode(device) {
                    let devnode = String(cString: node)
                    if devnode.hasPrefix("/dev/input/event") { events.append(.removed(devnode: devnode)) }
                }
            default:
                break
            }
        }
        return events
    }
}
