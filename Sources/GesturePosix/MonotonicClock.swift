#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC now, in microseconds (the clock evdev timestamps use once EVIOCSCLOCKID is set).
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// Sleeps until CLOCK_MONOTONIC reaches `microseconds` (absolute).
public func sleepUntilMonotonic(_ microseconds: Int64) {
    var ts = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}
