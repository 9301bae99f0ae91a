import GestureCore
import GesturePosix

/// What `EvdevDevice` needs from the kernel and libevdev: the seam where tests script a device
/// (EAGAIN, ENODEV on unplug, SYN_DROPPED and the state read after it, EINTR) under the real read
/// loop. Each call makes one attempt.
protocol EvdevEventSource: AnyObject {
    /// One `read(2)` of at most `capacity` whole events, appended to `events`: how many were read
    /// (at least one; EAGAIN when none wait).
    func readEvents(into events: inout [RawEvent], capacity: Int) -> Result<Int, Errno>
    /// The device's state now, read afresh through libevdev (`libevdev_new_from_fd`), as one frame
    /// of events that sets it (`DeviceStateFrame`), timestamped `time`.
    func currentState(at time: Timestamp) -> Result<[RawEvent], Errno>
    func useMonotonicClock() -> Result<Void, Errno>
    func grab(_ on: Bool) -> Result<Void, Errno>
    /// The libevdev handle a clone is made from (`EvdevDevice.makeClone`); nil for a scripted source.
    var libevdevHandle: OpaquePointer? { get }
}

extension EvdevEventSource {
    var libevdevHandle: OpaquePointer? { nil }
}
