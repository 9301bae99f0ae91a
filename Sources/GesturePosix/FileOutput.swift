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
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes text to fd 2 in full (no stdio buffering shared between threads).
public func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}

/// Ends the process (flushing nothing; callers write with `writeStandardError` / `LineWriter`).
public func exitProcess(_ status: Int32) -> Never { exit(status) }
