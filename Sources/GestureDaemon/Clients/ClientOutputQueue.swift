import GesturePosix
import GestureProtocol

/// One client's bounded queue of outgoing lines (docs/protocol.md, "Slow clients"), kept as one
/// byte buffer so a flush is one `send` however many lines wait. A line may carry a descriptor to
/// pass along with its first byte (the read end of a stream pipe, with the subscribe reply).
struct ClientOutputQueue {
    private var bytes: [UInt8] = []
    /// Bytes of `bytes` already sent.
    private var sent = 0
    /// End offset (in `bytes`) of each queued line, oldest first; `first` is the oldest unsent.
    private var lineEnds: [Int] = []
    private var first = 0
    /// Stream lines not queued since the queue was last empty (the client was too slow).
    var dropped = 0
    /// The descriptor to pass with the byte at `offset` (in `bytes`), until it is sent.
    private var attachment: (offset: Int, fd: FileDescriptor)?

    /// Lines not yet completely sent.
    var count: Int { lineEnds.count - first }
    var isEmpty: Bool { sent == bytes.count }

    /// Appends a line and its newline.
    mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(10)
        lineEnds.append(bytes.count)
    }

    /// Appends a line whose first byte carries `fd` (SCM_RIGHTS). Returns the descriptor of an
    /// earlier such line not sent yet, which will no longer be passed: the caller closes it.
    mutating func append(_ line: String, passing fd: FileDescriptor) -> FileDescriptor? {
        let displaced = attachment?.fd
        attachment = (bytes.count, fd)
        append(line)
        return displaced
    }

    /// Takes back the descriptor not yet passed, if any (the client is leaving): the caller closes it.
    mutating func removeAttachment() -> FileDescriptor? {
        defer { attachment = nil }
        return attachment?.fd
    }

    /// Appends the bytes of one line, its newline included.
    mutating func append(line: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: line)
        lineEnds.append(bytes.count)
    }

    /// Writes a line straight through `write` (nothing waiting before it) and queues what `write`
    /// did not take (EAGAIN: all of it). `.success(true)`: all written; `.success(false)`: part or
    /// all queued (watch for room); a failure other than EAGAIN is returned, nothing queued.
    @inline(__always)
    mutating func writeOrQueue(_ line: UnsafeRawBufferPointer,
                               _ write: (UnsafeRawBufferPointer) -> Result<Int, Errno>) -> Result<Bool, Errno> {
        switch write(line) {
        case .success(let count) where count == line.count:
            return .success(true)
        case .success(let count):
            append(line: UnsafeRawBufferPointer(rebasing: line[count...]))
        case .failure(.wouldBlock):
            append(line: line)
        case .failure(let error):
            return .failure(error)
        }
        return .success(false)
    }

    /// Writes as much of the queue as `write` takes (given the bytes and the descriptor to pass
    /// with them, it reports what one call wrote). Once everything is written, a queue that dropped
    /// lines gets the `dropped` line (its count told to `droppedLines`) and writing goes on. A
    /// descriptor that went out is handed to `passed`, to close the sender's copy. Returns nil when
    /// all was written or the writer is full (EAGAIN), else the errno that broke the writer.
    mutating func drain(_ write: (UnsafeRawBufferPointer, FileDescriptor?) -> Result<Int, Errno>,
                        passed: (FileDescriptor) -> Void, droppedLines: (Int) -> Void) -> Errno? {
        while true {
            while !isEmpty {
                var failure: Errno?
                let sentDescriptor = send { bytes, descriptor in
                    switch write(bytes, descriptor) {
                    case .success(let count): return count
                    case .failure(let error):
                        failure = error
                        return 0
                    }
                }
                if let sentDescriptor { passed(sentDescriptor) }
                guard let failure else { continue }
                return failure == .wouldBlock ? nil : failure
            }
            guard dropped > 0 else { return nil }
            droppedLines(dropped)
            append(ProtocolLine.dropped(dropped))
            dropped = 0
        }
    }

    /// Calls `body` with the unsent bytes and the descriptor to pass with the first of them (nil:
    /// none); it returns how many bytes it sent. Bytes before a line that carries a descriptor go
    /// alone, so the descriptor arrives with that line. Returns the descriptor once it was sent,
    /// for the caller to close its own copy.
    @discardableResult
    mutating func send(_ body: (UnsafeRawBufferPointer, FileDescriptor?) -> Int) -> FileDescriptor? {
        var end = bytes.count
        var passing: FileDescriptor?
        if let attachment {
            if attachment.offset > sent { end = attachment.offset } else { passing = attachment.fd }
        }
        let n = bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sent..<end]), passing) }
        var passed: FileDescriptor?
        if n > 0, passing != nil {
            passed = passing
            attachment = nil
        }
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
            attachment?.offset -= sent
            sent = 0
            first = 0
        }
        return passed
    }
}
