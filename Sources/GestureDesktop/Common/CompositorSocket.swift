#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// A connection to a compositor's Unix socket: non-blocking, with every wait bounded by a deadline,
/// so a compositor that stops answering costs at most `timeout` and never hangs the bridge.
public final class CompositorSocket {
    public let fd: Int32
    public let path: String

    /// Connects to `path` (fails at once when nobody listens there).
    public init(path: String) throws(SystemCallError) {
        let fd = try UnixSocket.connect(to: path)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Writes all of `bytes`, waiting at most until `deadline` (monotonic µs).
    public func write(_ bytes: [UInt8], deadline: Int64) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt {
                    Errno.result(send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL)))
                }
            }
            switch result {
            case .success(let n): offset += n
            case .failure(.wouldBlock): try wait(for: Int16(POLLOUT), until: deadline)
            case .failure(let error): throw SystemCallError("send", errno: error, subject: path)
            }
        }
    }

    /// What one read found.
    public enum Received: Equatable {
        case bytes(Int)
        case wouldBlock
        case end
    }

    /// One read of what is there now into `buffer` (appended).
    public func receiveAvailable(into buffer: inout [UInt8], chunk: Int = 65_536) throws(SystemCallError) -> Received {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let result = buffer.withUnsafeMutableBytes { raw in
            retryingOnInterrupt { Errno.result(recv(fd, raw.baseAddress! + start, chunk, Int32(MSG_DONTWAIT))) }
        }
        switch result {
        case .success(let n):
            buffer.removeLast(chunk - n)
            return n == 0 ? .end : .bytes(n)
        case .failure(.wouldBlock):
            buffer.removeLast(chunk)
            return .wouldBlock
        case .failure(let error):
            buffer.removeLast(chunk)
            throw SystemCallError("recv", errno: error, subject: path)
        }
    }

    /// Reads an event stream until nothing more is there now: each read's bytes are appended to
    /// `buffer` (emptied before each read when `clearing`) and handed to `handle`, which says whether
    /// they told of a change. Returns whether any did; the stream's end throws `closed`.
    public func drainEvents(into buffer: inout [UInt8], clearing: Bool, closed: String,
                            _ handle: (inout [UInt8]) throws(DesktopSourceError) -> Bool) throws(DesktopSourceError) -> Bool {
        var any = false
        while true {
            if clearing { buffer.removeAll(keepingCapacity: true) }
            let received: Received
            do { received = try receiveAvailable(into: &buffer) } catch { throw DesktopSourceError("\(error)") }
            switch received {
            case .wouldBlock: return any
            case .end: throw DesktopSourceError(closed)
            case .bytes: if try handle(&buffer) { any = true }
            }
        }
    }

    /// Reads until `endsReply` says the bytes just received end the reply, or until the end of the
    /// stream (`untilEnd`); at most `limit` bytes, waiting at most until `deadline`.
    public func read(limit: Int, deadline: Int64, untilEnd: Bool = false,
                     endsReply: (ArraySlice<UInt8>) -> Bool = { _ in false }) throws(SystemCallError) -> [UInt8] {
        var buffer: [UInt8] = []
        var complete = false
        while true {
            let before = buffer.count
            switch try receiveAvailable(into: &buffer) {
            case .bytes:
                if buffer.count > limit { throw SystemCallError("recv", code: EMSGSIZE, subject: "\(path): a reply over \(limit) bytes") }
                complete = complete || endsReply(buffer[before...])
                if !untilEnd && complete { return buffer }
            case .end:
                if untilEnd || complete { return buffer }
                throw SystemCallError("recv", code: ECONNRESET, subject: "\(path): the reply ended early")
            case .wouldBlock:
                try wait(for: Int16(POLLIN), until: deadline)
            }
        }
    }

    /// Waits until the socket is ready for `events`; ETIMEDOUT at `deadline`.
    public func wait(for events: Int16, until deadline: Int64) throws(SystemCallError) {
        var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
        switch Poll.wait(&descriptors, until: deadline) {
        case .success(0): throw SystemCallError("poll", code: ETIMEDOUT, subject: "\(path): no answer in time")
        case .success: return
        case .failure(let error): throw SystemCallError("poll", errno: error, subject: path)
        }
    }
}
