#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix

/// One open evdev node read through libevdev, non-blocking. Owned by one thread; not Sendable.
public final class EvdevDevice {
    public let path: String
    public let fd: FileDescriptor
    /// The device as data, for the pipeline.
    public let description: DeviceDescription
    public private(set) var isGrabbed = false
    /// SYN_DROPPED events seen (the kernel's buffer overflowed and events were lost): the reader
    /// notices a loss by this count changing, without looking at every event.
    public private(set) var droppedCount = 0
    /// libevdev, or a scripted source in tests.
    private let source: any EvdevEventSource

    /// What one `read` found.
    public enum ReadStatus: Equatable, Sendable {
        /// Everything pending was read; wait for the fd to be readable again.
        case drained
        /// The device is gone (ENODEV) or broken; close it.
        case gone(SystemCallError)
    }

    /// Opens `path` O_RDONLY | O_NONBLOCK | O_CLOEXEC and reads its description.
    public convenience init(path: String) throws(SystemCallError) {
        let source = try Libevdev(path: path)
        self.init(path: path, fd: source.fd, description: source.describe(path: path), source: source)
    }

    /// A device over any event source (tests script one).
    init(path: String, fd: FileDescriptor, description: DeviceDescription, source: any EvdevEventSource) {
        self.path = path
        self.fd = fd
        self.description = description
        self.source = source
    }

    /// Makes event timestamps CLOCK_MONOTONIC (EVIOCSCLOCKID), so they compare with timerfd deadlines.
    public func useMonotonicClock() throws(SystemCallError) {
        try source.useMonotonicClock().get("libevdev_set_clock_id", subject: path)
    }

    /// EVIOCGRAB: no other reader (X, libinput) sees this device's events while grabbed.
    public func grab(_ on: Bool) throws(SystemCallError) {
        try source.grab(on).get("libevdev_grab", subject: path)
        isGrabbed = on
    }

    /// Reads every pending event into `events`, until libevdev says EAGAIN (it buffers events
    /// internally, so stopping earlier could leave events that epoll would never report). After
    /// SYN_DROPPED come the SYN_DROPPED event itself, a SYN_REPORT that closes the dropped window
    /// (the frame assembler cancels the touches whose state was lost), then the resync delta libevdev
    /// computes (sync mode). The delta is the device's real current state, so it must reach the
    /// assembler as live events: a kernel-style "ignore until SYN_REPORT" would discard it (a finger
    /// lifted during the drop would stay down forever, since libevdev then filters the kernel's own
    /// repeated lift). An interrupted read is retried; any other error means the device is gone.
    public func read(into events: inout [RawEvent]) -> ReadStatus {
        var mode = EvdevReadMode.normal
        while true {
            switch retryingOnInterrupt({ source.nextEvent(mode) }) {
            case .success(.event(let event)):
                events.append(event)
            case .success(.resync(let event)):
                events.append(event)
                if mode == .normal {
                    droppedCount += 1
                    // SYN_DROPPED: close the dropped window, then read the sync delta until EAGAIN.
                    events.append(RawEvent(time: event.time, type: .syn, code: .synReport, value: 0))
                    mode = .sync
                }
            case .failure(.wouldBlock):
                guard mode == .sync else { return .drained }
                // Sync delta done; continue normally.
                mode = .normal
            case .failure(let error):
                return .gone(SystemCallError("libevdev_next_event", errno: error, subject: path))
            }
        }
    }
}
