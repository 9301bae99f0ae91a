/// The sway / i3 IPC frame: the magic `i3-ipc`, the payload's length and the message type as
/// native-endian u32, then the payload (JSON). Events have the high bit of the type set.
public enum I3Message: UInt32, Sendable {
    case runCommand = 0
    case getWorkspaces = 1
    case subscribe = 2
    case getOutputs = 3
    case getTree = 4

    public static let magic: [UInt8] = Array("i3-ipc".utf8)
    public static let headerSize = 14
    public static let eventBit: UInt32 = 0x8000_0000

    /// The frame of a request with `payload`.
    public static func frame(type: UInt32, payload: [UInt8]) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: UInt32(payload.count)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: payload)
        return bytes
    }

    public static func frame(_ message: I3Message, _ payload: String = "") -> [UInt8] {
        frame(type: message.rawValue, payload: Array(payload.utf8))
    }
}

/// One frame read off the socket.
public struct I3Frame: Equatable, Sendable {
    public var type: UInt32
    public var payload: [UInt8]
    public var isEvent: Bool { type & I3Message.eventBit != 0 }
}

/// Cuts a byte stream into frames. A frame whose header is not `i3-ipc` or whose length is over
/// `maximumPayload` is an error: the stream cannot be trusted past it (the caller reconnects).
public struct I3FrameDecoder: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible, Sendable {
        case notIPC(received: [UInt8])
        case tooLarge(length: UInt64, maximum: Int)

        public var description: String {
            switch self {
            case .notIPC(let received):
                "not an i3-ipc frame (it starts with \(received.prefix(6).map { String($0, radix: 16) }.joined(separator: " ")))"
            case .tooLarge(let length, let maximum):
                "a reply of \(length) bytes, over the \(maximum) bytes a reply may take"
            }
        }
    }

    /// 16 MiB: a sway tree of a thousand windows takes about 3 MiB.
    public static let defaultMaximumPayload = 16 << 20

    public let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maximumPayload: Int = I3FrameDecoder.defaultMaximumPayload) {
        self.maximumPayload = maximumPayload
    }

    /// Bytes held that are not a whole frame yet.
    public var pendingBytes: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, nil when more bytes are needed.
    public mutating func next() throws(Failure) -> I3Frame? {
        let available = buffer.count - start
        let magicSeen = min(available, I3Message.magic.count)
        guard buffer[start..<start + magicSeen].elementsEqual(I3Message.magic.prefix(magicSeen)) else {
            throw .notIPC(received: Array(buffer[start..<start + magicSeen]))
        }
        guard available >= I3Message.headerSize else { return nil }
        let length = readU32(at: start + 6)
        let type = readU32(at: start + 10)
        guard Int(length) <= maximumPayload else { throw .tooLarge(length: UInt64(length), maximum: maximumPayload) }
        guard available >= I3Message.headerSize + Int(length) else { return nil }
        let payloadStart = start + I3Message.headerSize
        let frame = I3Frame(type: type, payload: Array(buffer[payloadStart..<payloadStart + Int(length)]))
        start = payloadStart + Int(length)
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
        return frame
    }

    private func readU32(at index: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<4 { raw[i] = buffer[index + i] }
        }
        return value
    }
}
