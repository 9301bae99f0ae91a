#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// A blocking client of the daemon socket (gesturectl, tests): connect, send request lines, read
/// lines with a timeout.
public final class ControlClient {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// What one `recv` fills: allocated once, not per read.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// `$GESTURED_SOCKET`, else the system socket, else the user unit's socket in `$XDG_RUNTIME_DIR`.
    public static var defaultSocketPath: String {
        if let env = getenv("GESTURED_SOCKET") { return String(cString: env) }
        let system = "/run/gestured/gestured.sock"
        if access(system, F_OK) != 0, let runtime = getenv("XDG_RUNTIME_DIR") {
            let user = String(cString: runtime) + "/gestured/gestured.sock"
            if access(user, F_OK) == 0 { return user }
        }
        return system
    }

    public init(path: String) throws(SystemCallError) {
        // A local until connected: once `self.fd` is set, a throwing init also runs deinit,
        // which would close the fd a second time.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError.current("socket", subject: path) }
        let result = withUnixAddress(path) { address, length in
            retryingOnInterrupt { Errno.result(connect(fd, address, length)) }
        } ?? .failure(Errno(rawValue: ENAMETOOLONG))
        if case .failure(let error) = result {
            close(fd)
            throw SystemCallError("connect", errno: error, subject: path)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one line (a newline is added).
    public func send(_ line: String) throws(SystemCallError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Errno.result(Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))) }
            }
            offset += try result.get("send", subject: "daemon socket")
        }
    }

    /// The next line, nil at end of stream. Throws ETIMEDOUT when nothing complete arrives within
    /// `timeout` ms (-1: wait forever).
    public func readLine(timeout: Int32 = 5000) throws(SystemCallError) -> String? {
        switch try next(timeout: timeout, interruptFD: nil) {
        case .line(let line): line
        case .end, .interrupted: nil
        }
    }

    /// What `next` found.
    public enum Next: Equatable, Sendable {
        case line(String)
        /// The daemon closed the connection.
        case end
        /// `interruptFD` became readable first (a signalfd: Ctrl-C).
        case interrupted
    }

    /// The next line, or the end of the stream, or `interruptFD` becoming readable, whichever comes
    /// first. Throws ETIMEDOUT after `timeout` ms (-1: wait forever).
    public func next(timeout: Int32, interruptFD: Int32?) throws(SystemCallError) -> Next {
        let deadline = monotonicMicroseconds() + Int64(timeout) * 1000
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 65_536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return .line(line)
            }
            // Nothing else to wait for (no timeout, no interrupt descriptor): block in `recv` itself,
            // one system call per wake-up, as a plain reader of a pipe does (`gesturectl listen`).
            if timeout < 0 && interruptFD == nil {
                if let end = try receive() { return end }
                continue
            }
            var wait: Int32 = -1
            if timeout >= 0 {
                let remaining = deadline - monotonicMicroseconds()
                if remaining <= 0 { throw SystemCallError("poll", code: ETIMEDOUT, subject: "daemon socket") }
                wait = Int32(min(remaining / 1000 + 1, Int64(Int32.max)))
            }
            var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: interruptFD ?? -1, events: Int16(POLLIN), revents: 0)]
            // Interrupted: the loop recomputes the remaining time and polls again.
            switch Errno.result(poll(&pfds, 2, wait)) {
            case .success(0), .failure(.interrupted): continue
            case .success: break
            case .failure(let error): throw SystemCallError("poll", errno: error, subject: "daemon socket")
            }
            if pfds[1].revents != 0 { return .interrupted }
            if let end = try receive() { return end }
        }
    }

    /// One `recv` into `chunk`, its bytes appended to `buffer`. Returns what `next` returns when the
    /// daemon closed the connection (the unterminated rest as a line, else `.end`), nil otherwise.
    private func receive() throws(SystemCallError) -> Next? {
        let received = chunk.withUnsafeMutableBytes { chunk in
            retryingOnInterrupt { Errno.result(recv(fd, chunk.baseAddress, chunk.count, 0)) }
        }
        if received == .failure(.wouldBlock) { return nil }
        let n = try received.get("recv", subject: "daemon socket")
        if n == 0 {
            if start < buffer.count {
                let rest = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return .line(rest)
            }
            return .end
        }
        buffer.append(contentsOf: chunk[0..<n])
        return nil
    }
}
