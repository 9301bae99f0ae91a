#if canImport(Glibc)
import Glibc
#endif

/// poll(2) for session processes: waits until a descriptor is ready or a deadline passes, retried
/// after EINTR with the time that is left.
public enum Poll {
    /// How many of `descriptors` are ready (their `revents` set); 0 when `deadline` (monotonic µs)
    /// passed first; nil `deadline` waits for ever.
    public static func wait(_ descriptors: inout [pollfd], until deadline: Int64?,
                            calls: some SessionCalls = LinuxSessionCalls.shared) -> Result<Int, Errno> {
        retryingOnInterrupt {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - calls.monotonicNow()
                timeout = remaining <= 0 ? 0 : Int32(clamping: (remaining + 999) / 1000)
            }
            return descriptors.withUnsafeMutableBufferPointer { calls.pollOnce($0, timeout: timeout) }
        }
    }

    /// Whether `fd` became readable before `deadline`.
    public static func readable(_ fd: Int32, until deadline: Int64, calls: some SessionCalls = LinuxSessionCalls.shared) -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return (try? wait(&descriptors, until: deadline, calls: calls).get()) ?? 0 > 0
    }

    /// Sleeps `microseconds` (a signal does not cut it short).
    public static func sleep(microseconds: Int64) {
        sleepUntilMonotonic(monotonicMicroseconds() + microseconds)
    }
}
