/// Splits one client's bytes into request lines (docs/protocol.md, "Requests"). A line may hold up
/// to `limit` bytes before its newline. A longer line is refused exactly once, however the reads
/// split it: as soon as `limit` bytes without a newline are buffered, or when a complete line is
/// longer; the rest of that line, up to and including its newline, is then discarded unread. So
/// the buffer never holds more than `limit` bytes plus one read.
struct RequestLineReader {
    /// What the next line is.
    enum Line: Equatable {
        /// A line's bytes, without the newline.
        case request(ArraySlice<UInt8>)
        /// A line over the limit (reported once per line).
        case tooLong
    }

    let limit: Int
    private var buffer: [UInt8] = []
    /// First byte not yet handed out.
    private var start = 0
    /// Bytes after `start` already searched for a newline (none there).
    private var scanned = 0
    /// Inside an over-long line that was already refused: drop bytes up to its newline.
    private var discarding = false

    init(limit: Int) { self.limit = limit }

    /// Bytes held (a partial line, or lines not yet handed out).
    var bufferedCount: Int { buffer.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 65_536 || start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, or nil when none is buffered (read more).
    mutating func nextLine() -> Line? {
        while true {
            let from = start + scanned
            guard let newline = buffer[from...].firstIndex(of: 10) else {
                scanned = buffer.count - start
                if discarding {
                    dropBuffered()
                } else if scanned > limit {
                    // Refused before its end arrives; the rest of it is dropped as it comes.
                    dropBuffered()
                    discarding = true
                    return .tooLong
                }
                return nil
            }
            let line = buffer[start..<newline]
            start = newline + 1
            scanned = 0
            if discarding {
                // The tail of a line refused earlier: no second reply.
                discarding = false
                continue
            }
            return line.count > limit ? .tooLong : .request(line)
        }
    }

    /// Whether a complete line is buffered (the reader then holds back reading).
    mutating func hasCompleteLine() -> Bool {
        let from = start + scanned
        if buffer[from...].contains(10) { return true }
        scanned = buffer.count - start
        return false
    }

    private mutating func dropBuffered() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * limit)
        start = 0
        scanned = 0
    }
}
