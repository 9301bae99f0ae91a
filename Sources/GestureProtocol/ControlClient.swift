#if canImport(Glibc)
import Glibc
#endif
import GesturePosix
import CGestureSys

/// A blocking client of the daemon socket (gesturectl, tests): connect, send request lines, read
/// lines with a timeout. After a subscribe with `"stream":"pipe"`, `readStreamFromPassedPipe`
/// makes the lines come from the pipe the daemon passed with the reply.
public final class ControlClient {
    public let fd: Int32
    /// Where lines are read from: the socket, or the stream pipe once switched to it.
    private var source: Int32
    /// The stream pipe's read end, once lines come from it.
    private var streamPipe: Int32?
    /// The latest descriptor the daemon passed along (SCM_RIGHTS) and nobody took yet.
    private var passed: Int32?
    private var buffer: [UInt8] = []
    private var start = 0
    /// What one `recv` fills: allocated once, not per read.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Where to connect when no `--socket` is given: the shared lookup (`SocketPath`).
    public static var defaultSocketPath: String { SocketPath.current.forClient() }

    public init(path: String) throws(SystemCallError) {
        // A local until connected: once `self.fd` is set, a throwing init also runs deinit,
        // which would close the fd a second time.
        let fd = try UnixSocket.connect(to: path)
        self.fd = fd
        self.source = fd
    }

    deinit {
        close(fd)
        if let streamPipe { close(streamPipe) }
        if let passed { close(passed) }
    }

    /// Reads every further line from the stream pipe the daemon passed with its subscribe reply
    /// (docs/protocol.md, "Streaming through a pipe"). Call it once the requests' replies are read:
    /// they stay on the socket. False (the socket goes on) when no descriptor was passed, as with
    /// a daemon that does not know the `stream` key.
    @discardableResult
    public func readStreamFromPassedPipe() -> Bool {
        guard let pipe = passed else { return false }
        passed = nil
        if let streamPipe { close(streamPipe) }
        streamPipe = pipe
        source = pipe
        return true
    }

    /// Closes the stream pipe (lines come from the socket again): the daemon sees its reader leave.
    public func closeStreamPipe() {
        guard let streamPipe else { return }
        close(streamPipe)
        self.streamPipe = nil
        source = fd
    }

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
            // Nothing else to wait for (no timeout, no interrupt descriptor): block in `recv` (or
            // `read` on the stream pipe) itself, one system call per wake-up (`gesturectl listen`).
            if timeout < 0 && interruptFD == nil {
                if let end = try receive() { return end }
                continue
            }
            // A timeout of 0 still looks once: what is already there (a line, the end) is read.
            var pfds = [pollfd(fd: source, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: interruptFD ?? -1, events: Int16(POLLIN), revents: 0)]
            switch Poll.wait(&pfds, until: timeout >= 0 ? deadline : nil) {
            case .success(0):
                if timeout >= 0 && monotonicMicroseconds() >= deadline {
                    throw SystemCallError("poll", code: ETIMEDOUT, subject: "daemon socket")
                }
                continue
            case .success: break
            case .failure(let error): throw SystemCallError("poll", errno: error, subject: "daemon socket")
            }
            if pfds[1].revents != 0 { return .interrupted }
            if let end = try receive() { return end }
        }
    }

    /// One read of the line source into `chunk`, its bytes appended to `buffer`: `recv` on the
    /// socket (keeping a descriptor passed along), `read` on the stream pipe. Returns what `next`
    /// returns when the source ended (the unterminated rest as a line, else `.end`), nil otherwise.
    private func receive() throws(SystemCallError) -> Next? {
        let received: Result<Int, Errno> = chunk.withUnsafeMutableBytes { chunk in
            if streamPipe != nil {
                return retryingOnInterrupt { Errno.result(read(source, chunk.baseAddress, chunk.count)) }
            }
            return retryingOnInterrupt {
                var descriptor: Int32 = -1
                let result = Errno.result(gestured_receive_passed(source, chunk.baseAddress, chunk.count, 0, &descriptor))
                if descriptor >= 0 {
                    if let passed { close(passed) }
                    passed = descriptor
                }
                return result
            }
        }
        if received == .failure(.wouldBlock) { return nil }
        let n = try received.get(streamPipe != nil ? "read" : "recv", subject: streamPipe != nil ? "stream pipe" : "daemon socket")
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
