#if canImport(Glibc)
import Glibc
#endif
import GestureDevices
import CGestureSys
import GesturePosix

/// A small epoll wrapper. Owned by the loop thread.
final class Epoll {
    let fd: Int32
    private var buffer = [epoll_event](repeating: epoll_event(), count: 64)

    init() throws(SystemCallError) {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError.current("epoll_create1") }
    }
    deinit { close(fd) }

    static let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    static let writable = EPOLLOUT.rawValue

    func add(_ target: Int32, events: UInt32) throws(SystemCallError) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: target))
        if epoll_ctl(fd, EPOLL_CTL_ADD, target, &event) != 0 {
            throw SystemCallError.current("epoll_ctl(ADD)", subject: "fd \(target)")
        }
    }
    func modify(_ target: Int32, events: UInt32) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: target))
        _ = epoll_ctl(fd, EPOLL_CTL_MOD, target, &event)
    }
    func remove(_ target: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, target, &event)
    }

    /// Waits for events; `timeout` in ms, -1 forever. Returns (fd, events) pairs.
    func wait(timeout: Int32) throws(SystemCallError) -> [(fd: Int32, events: UInt32)] {
        let count = buffer.withUnsafeMutableBufferPointer { epoll_wait(fd, $0.baseAddress, Int32($0.count), timeout) }
        if count < 0 {
            if errno == EINTR { return [] }
            throw SystemCallError.current("epoll_wait")
        }
        return (0..<Int(count)).map { (buffer[$0].data.fd, buffer[$0].events) }
    }
}

/// A CLOCK_MONOTONIC timerfd armed at absolute times (µs). Non-blocking.
final class MonotonicTimer {
    let fd: Int32
    private(set) var armedAt: Int64?

    init() throws(SystemCallError) {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw SystemCallError.current("timerfd_create") }
    }
    deinit { close(fd) }

    /// Arms at `time` (absolute µs), or disarms with nil. Periodic with `interval` µs when given.
    func arm(at time: Int64?, interval: Int64? = nil) {
        guard time != armedAt || interval != nil else { return }
        armedAt = time
        var spec = itimerspec()
        if let time {
            let t = max(time, 1)
            spec.it_value = timespec(tv_sec: Int(t / 1_000_000), tv_nsec: Int(t % 1_000_000) * 1000)
            if let interval {
                spec.it_interval = timespec(tv_sec: Int(interval / 1_000_000), tv_nsec: Int(interval % 1_000_000) * 1000)
            }
        }
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Reads the expiration count so the fd is no longer readable.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
        armedAt = nil
    }
}

/// A signalfd for signals that were blocked in every thread with `SignalFD.block`.
final class SignalFD {
    let fd: Int32
    init(signals: [Int32]) throws(SystemCallError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw SystemCallError.current("signalfd") }
    }
    deinit { close(fd) }

    /// Blocks `signals` in the calling thread (call before any other thread starts).
    static func block(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    /// Every pending signal number.
    func drain() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        while retryingOnInterrupt({ read(fd, &info, MemoryLayout<signalfd_siginfo>.size) })
            == MemoryLayout<signalfd_siginfo>.size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}
