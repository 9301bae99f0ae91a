#if canImport(Glibc)
import GestureCore
import Glibc
#endif
import GesturePosix

/// Hyprland: `j/` requests on `.socket.sock` (one connection each; the reply ends with the
/// connection), `EVENT>>DATA` lines on `.socket2.sock`.
public final class HyprlandSource: DesktopSource {
    public var backend: String { "hyprland" }
    public private(set) var target: String
    public var missesChanges: Bool { true }
    let maximumReply: Int
    private var events: CompositorSocket?
    private var partialLine = 0

    /// `directory`: $XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE.
    public init(directory: String, maximumReply: Int = I3FrameDecoder.defaultMaximumPayload) {
        self.target = directory
        self.maximumReply = maximumReply
    }

    public var eventDescriptors: [Int32] { events.map { [$0.fd] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        do {
            events = try CompositorSocket(path: target + "/.socket2.sock")
        } catch {
            throw DesktopSourceError("\(error)")
        }
    }

    public func relocate() -> String? {
        guard let found = CompositorDiscovery.find(.hyprland, staleTarget: target) else { return nil }
        target = found
        return found
    }

    public func disconnect() { events = nil }

    public func drainEvents() throws(DesktopSourceError) -> Bool {
        guard let events else { throw DesktopSourceError("\(target): not connected") }
        var buffer: [UInt8] = []
        return try events.drainEvents(into: &buffer, clearing: true,
                                      closed: "\(target)/.socket2.sock: Hyprland closed the event stream") { buffer in
            // Each `EVENT>>DATA` line only says that something changed: the scene is read again.
            HyprlandEventLines.count(in: buffer, partial: &partialLine, maximumLine: 1 << 20) > 0
        }
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        do {
            let monitors = try request("j/monitors")
            let clients = try request("j/clients")
            let active = try? request("j/activewindow")
            let cursor = try? request("j/cursorpos")
            return try HyprlandReader.scene(monitors: monitors, clients: clients, activeWindow: active, cursor: cursor)
        } catch let error as DesktopSourceError {
            throw error
        } catch {
            throw DesktopSourceError("\(target): \(error)")
        }
    }

    func request(_ command: String) throws -> DesktopJSON {
        let socket = try CompositorSocket(path: target + "/.socket.sock")
        let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
        try socket.write(Array(command.utf8), deadline: deadline)
        let reply = try socket.read(limit: maximumReply, deadline: deadline, untilEnd: true)
        do {
            return try DesktopJSON(parsing: reply)
        } catch {
            throw DesktopSourceError("\(target)/.socket.sock: \(command): \(error)")
        }
    }
}

/// Counts the complete lines of Hyprland's event stream in a read. Only lengths are kept, never the
/// bytes: `partial` is the length of a line begun in an earlier read (reset past `maximumLine`), so
/// an endless line costs no memory.
public enum HyprlandEventLines {
    public static func count(in bytes: [UInt8], partial: inout Int, maximumLine: Int) -> Int {
        var lines = 0
        for byte in bytes {
            if byte == 10 {
                lines += 1
                partial = 0
            } else {
                partial += 1
            }
        }
        if partial > maximumLine { partial = 0 }
        return lines
    }
}
