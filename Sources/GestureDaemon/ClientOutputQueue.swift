/// One client's bounded queue of outgoing lines (docs/protocol.md, "Slow clients"), kept as one
/// byte buffer so a flush is one `send` however many lines wait.
struct ClientOutputQueue {
    private var bytes: [UInt8] = []
    /// Bytes of `bytes` already sent.
    private var sent = 0
    /// End offset (in `bytes`) of each queued line, oldest first; `first` is the oldest unsent.
    private var lineEnds: [Int] = []
    private var first = 0
    /// Stream lines not queued since the queue was last empty (the client was too slow).
    var dropped = 0

    /// Lines not yet completely sent.
    var count: Int { lineEnds.count - first }
    var isEmpty: Bool { sent == bytes.count }

    /// Appends a line and its newline.
    mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(10)
        lineEnds.append(bytes.count)
    }

    /// Appends the bytes of one line, its newline included.
    mutating func append(line: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: line)
        lineEnds.append(bytes.count)
    }

    /// Calls `body` with the unsent bytes; it returns how many it sent.
    mutating func send(_ body: (UnsafeRawBufferPointer) -> Int) {
        let n = bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
        sent += n
        while first < lineEnds.count && lineEnds[first] <= sent { first += 1 }
        if sent == bytes.count {
            // Keep a modest buffer for the next lines; give a big one back.
            bytes.removeAll(keepingCapacity: bytes.capacity <= 65_536)
            lineEnds.removeAll(keepingCapacity: lineEnds.capacity <= 4096)
            sent = 0
            first = 0
        } else if sent >= 65_536 && sent > bytes.count / 2 {
            bytes.removeFirst(sent)
            for i in first..<lineEnds.count { lineEnds[i] -= sent }
            lineEnds.removeFirst(first)
            sent = 0
            first = 0
        }
    }
}
