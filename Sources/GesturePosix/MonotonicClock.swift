#if canImport(Glibc)
import Glibc
#endif
import CGestureSys

/// CLOCK_MONOTONIC now, in microseconds (the clock evdev timestamps use once EVIOCSCLOCKID is set).
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// Sleeps until CLOCK_MONOTONIC reaches `microseconds` (absolute); a signal does not cut it short.
public func sleepUntilMonotonic(_ microseconds: Int64) {
    var ts = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
    _ = retryingOnInterrupt { Errno.result(returned: clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)) }
}

/// Reads one 8-byte counter (timerfd expirations) so the fd stops being readable.
func readCounter(_ fd: FileDescriptor) -> UInt64 {
    var value: UInt64 = 0
    _ = retryingOnInterrupt { Errno.result(read(fd.rawValue, &value, 8)) }
    return value
}

/// A CLOCK_MONOTONIC timerfd armed at absolute times (µs). Non-blocking. Owned by the loop thread.
public final class MonotonicTimer {
    public let fd: FileDescriptor
    public private(set) var armedAt: Int64?

    public init() throws(SystemCallError) {
        fd = try Errno.result(timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)))
            .map(FileDescriptor.init(rawValue:)).get("timerfd_create")
    }
    deinit { LinuxSystemCalls.shared.close(fd) }

    /// Arms at `time` (absolute µs), or disarms with nil. Periodic with `interval` µs when given.
    /// The loop asks at every turn; unchanged, the common case, is decided where it asks.
    @inlinable
    public func arm(at time: Int64?, interval: Int64? = nil) {
        guard time != armedAt || interval != nil else { return }
        set(at: time, interval: interval)
    }

    @usableFromInline
    func set(at time: Int64?, interval: Int64?) {
        armedAt = time
        var spec = itimerspec()
        if let time {
            let t = max(time, 1)
            spec.it_value = timespec(tv_sec: Int(t / 1_000_000), tv_nsec: Int(t % 1_000_000) * 1000)
            if let interval {
                spec.it_interval = timespec(tv_sec: Int(interval / 1_000_000), tv_nsec: Int(interval % 1_000_000) * 1000)
            }
        }
        if case .failure(let error) = Errno.result(timerfd_settime(fd.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)) {
            // EINVAL: a nanosecond field out of range, which the arithmetic above rules out.
            preconditionNotABug(error, "timerfd_settime", fd: fd.rawValue, alsoBug: .invalidArgument)
        }
    }

    /// Reads the expiration count so the fd is no longer readable.
    public func acknowledge() {
        _ = readCounter(fd)
        armedAt = nil
    }
}

/// A periodic timerfd whose expirations are only counted (the systemd watchdog).
extension MonotonicTimer {
    /// Reads the expirations without forgetting the armed time (periodic timers stay armed).
    public func acknowledgePeriodic() { _ = readCounter(fd) }
}
