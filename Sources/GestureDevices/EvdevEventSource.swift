import GestureCore
import GesturePosix

/// libevdev's two read modes.
enum EvdevReadMode: Sendable {
    /// LIBEVDEV_READ_FLAG_NORMAL.
    case normal
    /// LIBEVDEV_READ_FLAG_SYNC: the resync delta after SYN_DROPPED.
    case sync
}

/// One successful `libevdev_next_event`.
enum EvdevNextEvent: Equatable, Sendable {
    /// LIBEVDEV_READ_STATUS_SUCCESS.
    case event(RawEvent)
    /// LIBEVDEV_READ_STATUS_SYNC: in normal mode the SYN_DROPPED event, in sync mode one event
    /// of the resync delta.
    case resync(RawEvent)
}

/// What `EvdevDevice` needs from libevdev: the seam where tests script a device (EAGAIN, ENODEV on
/// unplug, SYN_DROPPED and its resync, EINTR) under the real read loop. Each call makes one attempt.
protocol EvdevEventSource: AnyObject {
    func nextEvent(_ mode: EvdevReadMode) -> Result<EvdevNextEvent, Errno>
    func useMonotonicClock() -> Result<Void, Errno>
    func grab(_ on: Bool) -> Result<Void, Errno>
}
