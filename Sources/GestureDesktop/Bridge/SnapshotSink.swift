#if canImport(Glibc)
import Glibc
#endif
import GesturePosix
import GestureProtocol

/// Where the bridge's snapshots go: the daemon, or stdout (`--print`).
public protocol SnapshotSink: AnyObject {
    /// Whether the sink can take a snapshot now (a daemon connection may be down).
    var isReady: Bool { get }
    /// Sends the lines of one snapshot: `.nothing` when they went through, `.gone` when the sink
    /// went away (the bridge tries again later), `.replaced` when another bridge took the seat.
    func send(_ lines: [String]) -> SinkNews
    /// Opens the sink again after it went away; false when it still cannot.
    func reopen() -> Bool
    /// Closes the sink (the compositor is gone: the daemon drops the windows when the bridge leaves).
    func close()
    /// A descriptor to watch for the sink's news (the daemon's lines), if any.
    var descriptor: Int32? { get }
    /// Reads the sink's news; false when it went away.
    func service() -> SinkNews
}

public enum SinkNews: Equatable, Sendable {
    case nothing
    case gone
    /// Another bridge took over this seat (`desktop-replaced`).
    case replaced(String)
}

/// Writes each snapshot's lines to a descriptor (stdout), one line each, as they are sent.
public final class PrintSink: SnapshotSink {
    let writer: LineWriter

    public init(fd: Int32 = 1) { writer = LineWriter(fd: fd, flushesEachLine: true) }

    public var isReady: Bool { true }
    public func send(_ lines: [String]) -> SinkNews {
        for line in lines { writer.write(line: line) }
        return .nothing
    }
    public func reopen() -> Bool { true }
    public func close() {}
    public var descriptor: Int32? { nil }
    public func service() -> SinkNews { .nothing }
}

/// The daemon's socket: each part is sent and its reply read before the next.
public final class DaemonSink: SnapshotSink {
    public let path: String
    let log: (String) -> Void
    private var client: ControlClient?
    /// Milliseconds to wait for a reply.
    let timeout: Int32
    /// Gets the daemon's `window-action` lines (docs/protocol.md, "Window actions"): they are
    /// requests for the bridge, not news of the connection, so the bridge's state does not change.
    public var onWindowAction: ((String) -> Void)?

    public init(path: String, timeout: Int32 = 5000, log: @escaping (String) -> Void) {
        self.path = path
        self.timeout = timeout
        self.log = log
    }

    public var isReady: Bool { client != nil }
    public var descriptor: Int32? { client?.fd }

    public func reopen() -> Bool {
        client = nil
        do {
            let client = try ControlClient(path: path)
            guard let hello = try client.readLine(timeout: timeout), hello.contains("\"type\":\"hello\"") else {
                log("\(path): the daemon did not greet (expected a hello line)")
                return false
            }
            self.client = client
            return true
        } catch {
            return false
        }
    }

    public func close() { client = nil }

    public func send(_ lines: [String]) -> SinkNews {
        guard let client else { return .gone }
        do {
            for line in lines {
                try client.send(line)
                while true {
                    guard let reply = try client.readLine(timeout: timeout) else {
                        self.client = nil
                        return .gone
                    }
                    if reply.hasPrefix("{\"type\":\"response\"") { break }
                    if reply.hasPrefix("{\"type\":\"error\"") {
                        log("the daemon refused the snapshot: \(ProtocolLine.message(ofError: reply) ?? reply)")
                        return .nothing
                    }
                    if reply.hasPrefix("{\"type\":\"desktop-replaced\"") {
                        self.client = nil
                        return .replaced(reply)
                    }
                    if WindowActionRequest.isRequest(reply) { onWindowAction?(reply) }
                }
            }
            return .nothing
        } catch {
            log("\(path): \(error)")
            self.client = nil
            return .gone
        }
    }

    public func service() -> SinkNews {
        guard let client else { return .gone }
        do {
            while true {
                switch try client.next(timeout: 0, interruptFD: nil) {
                case .line(let line):
                    if line.hasPrefix("{\"type\":\"desktop-replaced\"") { return .replaced(line) }
                    if WindowActionRequest.isRequest(line) { onWindowAction?(line) }
                case .end, .interrupted:
                    self.client = nil
                    return .gone
                }
            }
        } catch let error where error.errno == .timedOut {
            return .nothing
        } catch {
            self.client = nil
            return .gone
        }
    }
}
