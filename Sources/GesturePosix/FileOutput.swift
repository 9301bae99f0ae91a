#if canImport(Glibc)
import Glibc
#endif

/// Buffered writer to a file descriptor (stdout for replay); flushes at 64 KiB or on demand.
public final class LineWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Flush after every line (realtime replay, `gesturectl listen`).
    public var flushesEachLine: Bool

    public init(fd: Int32 = 1, flushesEachLine: Bool = false) {
        self.fd = fd
        self.flushesEachLine = flushesEachLine
        buffer.reserveCapacity(65_536)
    }
    deinit { flush() }

    public func write(line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if flushesEachLine || buffer.count >= 65_536 { flush() }
    }

    public func flush() {
        _ = buffer.withUnsafeBytes { writeFully(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR; stops at any other error (a
/// closed pipe: the reader is gone) and returns it, for callers that have somebody to tell.
@discardableResult
public func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
    var offset = 0
    while offset < bytes.count {
        let result = retryingOnInterrupt { Errno.result(write(fd, bytes.baseAddress! + offset, bytes.count - offset)) }
        switch result {
        case .success(let n) where n > 0: offset += n
        case .success: return .failure(Errno(rawValue: EIO))
        case .failure(let error): return .failure(error)
        }
    }
    return .success(())
}

/// Writes text to fd 2 in full (no stdio buffering shared between threads).
public func writeStandardError(_ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { writeFully(2, $0) }
}

/// Ends the process (flushing nothing; callers write with `writeStandardError` / `LineWriter`).
public func exitProcess(_ status: Int32) -> Never { exit(status) }
