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
        buffer.withUnsafeBytes { writeFully(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR; stops quietly at any other
/// error (a closed pipe: the reader is gone and there is nobody to tell).
func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let result = retryingOnInterrupt { Errno.result(write(fd, bytes.baseAddress! + offset, bytes.count - offset)) }
        guard case .success(let n) = result, n > 0 else { return }
        offset += n
    }
}

/// Writes text to fd 2 in full (no stdio buffering shared between threads).
public func writeStandardError(_ text: String) {
    Array(text.utf8).withUnsafeBytes { writeFully(2, $0) }
}

/// Ends the process (flushing nothing; callers write with `writeStandardError` / `LineWriter`).
public func exitProcess(_ status: Int32) -> Never { exit(status) }
