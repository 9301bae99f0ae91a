#if canImport(Glibc)
import GestureCore
import Glibc
#endif
import GesturePosix

/// sway or i3 over its IPC socket ($SWAYSOCK / $I3SOCK): GET_OUTPUTS and GET_TREE on one
/// connection, the window / workspace / output events on a second one.
public final class SwaySource: DesktopSource {
    public let backend: String
    public private(set) var target: String
    public var missesChanges: Bool { true }
    let dialect: SwayTreeReader.Dialect
    let maximumReply: Int
    private var commands: CompositorSocket?
    private var events: CompositorSocket?
    private var eventDecoder: I3FrameDecoder

    public init(path: String, dialect: SwayTreeReader.Dialect, maximumReply: Int = I3FrameDecoder.defaultMaximumPayload) {
        self.target = path
        self.dialect = dialect
        self.backend = dialect == .sway ? "sway" : "i3"
        self.maximumReply = maximumReply
        self.eventDecoder = I3FrameDecoder(maximumPayload: maximumReply)
    }

    public var eventDescriptors: [Int32] { events.map { [$0.fd] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        do {
            let commands = try CompositorSocket(path: target)
            let events = try CompositorSocket(path: target)
            // sway before 1.8 has no `output` event and refuses a subscription that names it: its
            // output changes come with workspace events and the poll.
            var reply = try Self.request(events, .subscribe, "[\"window\",\"workspace\",\"output\",\"shutdown\"]", maximum: maximumReply)
            if (try? DesktopJSON(parsing: reply))?["success"]?.bool != true {
                reply = try Self.request(events, .subscribe, "[\"window\",\"workspace\",\"shutdown\"]", maximum: maximumReply)
            }
            guard (try? DesktopJSON(parsing: reply))?["success"]?.bool == true else {
                throw DesktopSourceError("\(target): the subscription was refused: \(String(decoding: reply.prefix(200), as: UTF8.self))")
            }
            self.commands = commands
            self.events = events
            eventDecoder = I3FrameDecoder(maximumPayload: maximumReply)
        } catch let error as DesktopSourceError {
            throw error
        } catch {
            throw DesktopSourceError("\(error)")
        }
    }

    public func relocate() -> String? {
        guard let found = CompositorDiscovery.find(dialect == .sway ? .sway : .i3, staleTarget: target) else { return nil }
        target = found
        return found
    }

    public func disconnect() {
        commands = nil
        events = nil
    }

    public func drainEvents() throws(DesktopSourceError) -> Bool {
        guard let events else { throw DesktopSourceError("\(target): not connected") }
        var buffer: [UInt8] = []
        return try events.drainEvents(into: &buffer, clearing: true,
                                      closed: "\(target): the compositor closed the connection") { buffer throws(DesktopSourceError) in
            eventDecoder.append(buffer)
            var any = false
            do {
                while let frame = try eventDecoder.next() {
                    any = true
                    if frame.type == I3Message.eventBit | 6 {
                        throw DesktopSourceError("\(target): the compositor is shutting down")
                    }
                }
            } catch {
                throw sourceError(error)
            }
            return any
        }
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        guard let commands else { throw DesktopSourceError("\(target): not connected") }
        do {
            let outputs = try DesktopJSON(parsing: try Self.request(commands, .getOutputs, maximum: maximumReply))
            let tree = try DesktopJSON(parsing: try Self.request(commands, .getTree, maximum: maximumReply))
            return try SwayTreeReader.scene(tree: tree, outputs: outputs, dialect: dialect)
        } catch {
            throw sourceError(error)
        }
    }

    /// An error as the bridge reports it: the source's own as it is; the frame decoder's, the JSON
    /// parser's and the reader's named with the compositor's socket.
    private func sourceError(_ error: any Error) -> DesktopSourceError {
        switch error {
        case let error as DesktopSourceError: error
        case is I3FrameDecoder.Failure, is DesktopJSON.SyntaxError, is SwayTreeReader.Failure: DesktopSourceError("\(target): \(error)")
        default: DesktopSourceError("\(error)")
        }
    }

    /// Sends one request and returns its reply's payload (events in between are skipped).
    static func request(_ socket: CompositorSocket, _ message: I3Message, _ payload: String = "",
                        maximum: Int) throws -> [UInt8] {
        let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
        try socket.write(I3Message.frame(message, payload), deadline: deadline)
        var decoder = I3FrameDecoder(maximumPayload: maximum)
        var buffer: [UInt8] = []
        while true {
            while let frame = try decoder.next() {
                if frame.type == message.rawValue { return frame.payload }
            }
            buffer.removeAll(keepingCapacity: true)
            switch try socket.receiveAvailable(into: &buffer) {
            case .bytes: decoder.append(buffer)
            case .end: throw DesktopSourceError("\(socket.path): the compositor closed the connection")
            case .wouldBlock: try socket.wait(for: Int16(POLLIN), until: deadline)
            }
        }
    }
}
