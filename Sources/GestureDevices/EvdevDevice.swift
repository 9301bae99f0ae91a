#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix

/// One open evdev node, non-blocking: described, grabbed and resynchronised through libevdev, read
/// with plain `read(2)`. Owned by one thread; not Sendable.
public final class EvdevDevice {
    public let path: String
    public let fd: FileDescriptor
    /// The device as data, for the pipeline.
    public let description: DeviceDescription
    public private(set) var isGrabbed = false
    /// SYN_DROPPED events seen (the kernel's buffer overflowed and events were lost): the reader
    /// notices a loss by this count changing, without looking at every event.
    public private(set) var droppedCount = 0
    /// The kernel and libevdev, or a scripted source in tests.
    let source: any EvdevEventSource

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
        self.init(path: path, fd: source.fd, description: source.description, source: source)
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

    /// Events one `read(2)` asks for: more than a frame of any real device (a ten-finger frame is
    /// about 60), so a frame usually takes one read, and a read that returns fewer than this means
    /// the kernel's queue was empty (epoll is level-triggered: whatever comes later wakes us again).
    static let readCapacity = 64
    /// At most this many reads are discarded after SYN_DROPPED (a device that never stops
    /// reporting cannot hold the loop; the state read after them is current either way).
    static let drainLimit = 16

    /// Reads what the kernel has queued into `events`, with plain `read(2)` calls of whole events
    /// (one per wake-up for a frame; libevdev's per-event calls cost more than the rest of the read
    /// path on the emulated CPU the VM test runs on, docs/daemon.md). Until a read comes back short
    /// or EAGAIN: events are never left in the kernel's queue unread.
    ///
    /// After SYN_DROPPED (the kernel's queue for this reader overflowed and events were lost):
    /// the SYN_DROPPED event itself, a SYN_REPORT that closes the dropped window (the frame assembler
    /// cancels the touches whose state was lost), then the device's whole state now, read afresh
    /// through libevdev, as one frame (`DeviceStateFrame`). What the kernel still holds after the
    /// drop is read and discarded first, as libevdev does: the state read supersedes it. The state
    /// must reach the assembler as live events: a finger lifted during the drop ends there, and a
    /// finger still down begins anew. An interrupted read is retried; any other error means the
    /// device is gone.
    public func read(into events: inout [RawEvent]) -> ReadStatus {
        while true {
            let start = events.count
            switch retryingOnInterrupt({ source.readEvents(into: &events, capacity: Self.readCapacity) }) {
            case .success(let count):
                var index = start
                while index < events.count {
                    if events[index].type == .syn && events[index].code == .synDropped {
                        return resynchronize(&events, droppedAt: index)
                    }
                    index += 1
                }
                if count < Self.readCapacity { return .drained }
            case .failure(.wouldBlock):
                return .drained
            case .failure(let error):
                return .gone(SystemCallError("read", errno: error, subject: path))
            }
        }
    }

    /// SYN_DROPPED at `events[index]`: keeps it, drops what followed it, closes the window, drains
    /// the kernel's queue and appends the device's state now.
    private func resynchronize(_ events: inout [RawEvent], droppedAt index: Int) -> ReadStatus {
        droppedCount += 1
        let dropped = events[index]
        var latest = dropped.time
        for event in events[(index + 1)...] where event.time > latest { latest = event.time }
        events.removeSubrange((index + 1)...)
        events.append(RawEvent(time: dropped.time, type: .syn, code: .synReport, value: 0))
        var discarded: [RawEvent] = []
        drain: for _ in 0..<Self.drainLimit {
            discarded.removeAll(keepingCapacity: true)
            switch retryingOnInterrupt({ source.readEvents(into: &discarded, capacity: Self.readCapacity) }) {
            case .success(let count):
                for event in discarded where event.time > latest { latest = event.time }
                if count < Self.readCapacity { break drain }
            case .failure(.wouldBlock):
                break drain
            case .failure(let error):
                return .gone(SystemCallError("read", errno: error, subject: path))
            }
        }
        switch source.currentState(at: latest) {
        case .success(let state):
            events += state
            return .drained
        case .failure(let error):
            return .gone(SystemCallError("libevdev_new_from_fd", errno: error, subject: path))
        }
    }
}
