#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET` (READY=1, RELOADING=1, STOPPING=1,
/// WATCHDOG=1). Does nothing when the variable is unset.
public struct SystemdNotifier: Sendable {
    public let socketPath: String?
    /// Half of WATCHDOG_USEC (when it is meant for this process), µs.
    public let watchdogInterval: Int64?

    public init() {
        socketPath = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        var interval: Int64?
        if let usec = getenv("WATCHDOG_USEC").flatMap({ Int64(String(cString: $0)) }), usec > 0 {
            let pid = getenv("WATCHDOG_PID").flatMap { Int32(String(cString: $0)) }
            if pid == nil || pid == getpid() { interval = usec / 2 }
        }
        watchdogInterval = interval
    }

    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(state.utf8)
        let sent = withUnixAddress(socketPath) { address, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        return sent == bytes.count
    }

    public func ready() { send("READY=1\nSTATUS=running") }
    public func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())") }
    public func stopping() { send("STOPPING=1") }
    public func watchdog() { send("WATCHDOG=1") }
}
