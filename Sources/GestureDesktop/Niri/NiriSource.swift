#if canImport(Glibc)
import GestureCore
import Glibc
#endif
import GesturePosix

/// niri over $NIRI_SOCKET: one JSON request line, one JSON reply line, a connection each; the
/// `EventStream` on a connection of its own. niri sends `WindowLayoutsChanged` when windows move
/// or resize (since 25.08); until one is seen the bridge also polls.
public final class NiriSource: DesktopSource {
    public var backend: String { "niri" }
    public private(set) var target: String
    public private(set) var missesChanges = true
    let maximumReply: Int
    private var events: CompositorSocket?
    private var pending: [UInt8] = []
    /// How many windows were last left out (no position), to log when it changes.
    public private(set) var leftOut = 0
    let log: (String) -> Void

    public init(path: String, maximumReply: Int = I3FrameDecoder.defaultMaximumPayload, log: @escaping (String) -> Void = { _ in }) {
        self.target = path
        self.maximumReply = maximumReply
        self.log = log
    }

    public var eventDescriptors: [Int32] { events.map { [$0.fd] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        do {
            let events = try CompositorSocket(path: target)
            let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
            try events.write(Array("\"EventStream\"\n".utf8), deadline: deadline)
            let reply = try events.read(limit: maximumReply, deadline: deadline) { $0.contains(10) }
            let line = reply.prefix { $0 != 10 }
            guard (try? DesktopJSON(parsing: line))?["Ok"] != nil else {
                throw DesktopSourceError("\(target): niri refused the event stream: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            // Events that came with the reply: the scene is read right after connecting anyway.
            pending = Array(reply.dropFirst(line.count + 1))
            _ = consumeLines(&pending)
            self.events = events
        } catch let error as DesktopSourceError {
            throw error
        } catch {
            throw DesktopSourceError("\(error)")
        }
    }

    public func relocate() -> String? {
        guard let found = CompositorDiscovery.find(.niri, staleTarget: target) else { return nil }
        target = found
        return found
    }

    public func disconnect() {
        events = nil
        pending = []
    }

    public func drainEvents() throws(DesktopSourceError) -> Bool {
        guard let events else { throw DesktopSourceError("\(target): not connected") }
        var pending = self.pending
        defer { self.pending = pending }
        return try events.drainEvents(into: &pending, clearing: false,
                                      closed: "\(target): niri closed the event stream") { pending throws(DesktopSourceError) in
            let any = consumeLines(&pending)
            // A line with no end in sight is not an event niri sends: the stream cannot be trusted.
            if pending.count > maximumReply {
                throw DesktopSourceError("\(target): an event line over \(maximumReply) bytes")
            }
            return any
        }
    }

    /// Drops the complete event lines held; true when there was one. A `WindowLayoutsChanged`
    /// among them ends the polling.
    private func consumeLines(_ pending: inout [UInt8]) -> Bool {
        var any = false
        while let newline = pending.firstIndex(of: 10) {
            any = true
            if NiriEvents.isLayoutChange(pending[..<newline]) { missesChanges = false }
            pending.removeSubrange(...newline)
        }
        return any
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        do {
            let outputs = try NiriReader.response(try request("Outputs"), "Outputs")
            let workspaces = try NiriReader.response(try request("Workspaces"), "Workspaces")
            let windows = try NiriReader.response(try request("Windows"), "Windows")
            let (scene, leftOut) = try NiriReader.scene(outputs: outputs, workspaces: workspaces, windows: windows)
            if leftOut != self.leftOut && leftOut > 0 {
                log("\(leftOut) tiled windows left out: niri gives no position for windows in its scrolling layout")
            }
            self.leftOut = leftOut
            return scene
        } catch let error as DesktopSourceError {
            throw error
        } catch {
            throw DesktopSourceError("\(target): \(error)")
        }
    }

    func request(_ name: String) throws -> DesktopJSON {
        let socket = try CompositorSocket(path: target)
        let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
        try socket.write(Array("\"\(name)\"\n".utf8), deadline: deadline)
        let reply = try socket.read(limit: maximumReply, deadline: deadline) { $0.contains(10) }
        do {
            return try DesktopJSON(parsing: reply.prefix { $0 != 10 })
        } catch {
            throw DesktopSourceError("\(target): \(name): \(error)")
        }
    }
}

public enum NiriEvents {
    /// Whether an event line is `{"WindowLayoutsChanged":...}`.
    public static func isLayoutChange(_ line: some Collection<UInt8>) -> Bool {
        let prefix = Array("{\"WindowLayoutsChanged\"".utf8)
        return line.starts(with: prefix)
    }
}
