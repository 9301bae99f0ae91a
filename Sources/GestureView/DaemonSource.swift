import Foundation
import Synchronization
import GestureCore
import GestureProtocol
import GestureReport

/// The view's side of the socket: a client like `gesturectl listen` (docs/protocol.md). One
/// connection subscribes to everything — gestures, every touch stream (`"touches":["*"]`, which
/// makes no region a touch consumer), explain lines — and hands each line to the feed as it
/// comes; a second asks `status` every `interval` seconds, and `devices` and `scene` again when the
/// status shows another config, desktop snapshot or device count. The daemon's rules for slow
/// clients hold for both: this process reading slowly only costs it dropped lines.
/// A daemon that goes away is looked for again every second; the page is told.
public final class DaemonSource: Sendable {
    public let socketPath: String
    public let feed: ViewFeed
    public let interval: Double
    /// Set by the stream when a line names a device not seen yet.
    private let refresh = Atomic<Bool>(false)
    /// Set by the poller after a refresh: the next poll asks `devices` and `scene` whatever the status.
    private let forced = Atomic<Bool>(false)
    /// Always true: the poll loop's condition (a constant `while true` there made Swift 6.3.1's
    /// optimizer run without end on this module in release builds).
    private let polling = Atomic<Bool>(true)

    public init(socketPath: String, feed: ViewFeed, interval: Double = 1) {
        self.socketPath = socketPath
        self.feed = feed
        self.interval = interval
    }

    /// Starts both connections on threads of their own.
    public func start() {
        let stream = Thread { [self] in streamForever() }
        stream.name = "view-stream"
        stream.start()
        let poll = Thread { [self] in pollForever() }
        poll.name = "view-poll"
        poll.start()
    }

    private func streamForever() {
        while true {
            let ended: String
            do {
                try streamOnce()
                ended = "the daemon closed the connection"
            } catch {
                ended = "cannot reach gestured at \(socketPath): \(error)"
            }
            feed.publish(kept: "daemon", Self.daemonLine(connected: false, detail: ended))
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// One connection's stream, until the daemon closes it.
    private func streamOnce() throws {
        let client = try ControlClient(path: socketPath)
        guard let hello = try client.readLine(timeout: 5000), hello.contains("\"type\":\"hello\"") else {
            throw Failure.noHello
        }
        feed.publish(kept: "hello", hello)
        feed.publish(kept: "daemon", Self.daemonLine(connected: true, detail: socketPath))
        // The root's stream carries every touch no nearer region consumes; "*" adds the streams
        // of regions that other clients consume.
        let root = Self.rootRegion(try ask(client, "status"))
        try client.send("{\"request\":\"subscribe\",\"touches\":[\"*\",\(JSONLine.quoted(root))]}")
        try client.send("{\"request\":\"explain\",\"on\":true}")
        var devices = Set<String>()
        while let line = try client.readLine(timeout: -1) {
            // Replies to our own two requests say nothing to the page.
            if line.hasPrefix("{\"type\":\"response\"") { continue }
            // A device not seen yet (an injected recording lasts a second): the poller asks
            // `devices` now.
            if let name = Self.deviceName(in: line), devices.insert(name).inserted {
                refresh.store(true, ordering: .releasing)
            }
            feed.publish(line)
        }
    }

    /// The config's root region, the first id of `status`'s `regions`.
    static func rootRegion(_ status: String) -> String {
        JSONValue(parsing: status)?["regions"]?.arrayValue?.first?.stringValue ?? "screen"
    }

    /// What the poller last sent, to send `devices` and `scene` only when they changed.
    private struct PollMemory {
        var key = ""
        var scene = ""
        var devices = ""
    }

    private func pollForever() {
        var memory = PollMemory()
        while true {
            do { try pollConnection(&memory) } catch { memory = PollMemory() }
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// Polls over one connection until it fails.
    private func pollConnection(_ memory: inout PollMemory) throws {
        let client = try ControlClient(path: socketPath)
        _ = try client.readLine(timeout: 5000)
        repeat {
            try poll(client, &memory)
            waitForNextPoll()
        } while polling.load(ordering: .relaxed)
    }

    /// One `status`, and `devices` and `scene` when the status shows a change.
    private func poll(_ client: ControlClient, _ memory: inout PollMemory) throws {
        let status = try ask(client, "status")
        feed.publish(kept: "status", status)
        let key = Self.changeKey(status)
        let force = forced.exchange(false, ordering: .acquiringAndReleasing)
        guard force || key != memory.key else { return }
        let devices = try ask(client, "devices")
        if devices != memory.devices { feed.publish(kept: "devices", devices); memory.devices = devices }
        let scene = try ask(client, "scene")
        if scene != memory.scene { feed.publish(kept: "scene", scene); memory.scene = scene }
        memory.key = key
    }

    /// Sleeps `interval`, or less when the stream saw a new device (then `devices` is asked again).
    private func waitForNextPoll() {
        var slept = 0.0
        while slept < interval && !refresh.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: 0.02)
            slept += 0.02
        }
        if refresh.exchange(false, ordering: .acquiringAndReleasing) { forced.store(true, ordering: .releasing) }
    }

    private enum Failure: Error { case noHello, closed, refused(String) }

    private func ask(_ client: ControlClient, _ request: String) throws -> String {
        try client.send("{\"request\":\"\(request)\"}")
        while let line = try client.readLine(timeout: 5000) {
            if line.hasPrefix("{\"type\":\"response\"") { return line }
            if line.hasPrefix("{\"type\":\"error\"") {
                // A daemon from before the scene request: the page draws without it.
                return line
            }
        }
        throw Failure.closed
    }

    /// The `device` of a gesture or touch line, read without parsing the whole line.
    static func deviceName(in line: String) -> String? {
        guard let start = line.range(of: ",\"device\":\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// What in a status line calls for asking `devices` and `scene` again.
    static func changeKey(_ status: String) -> String {
        guard let value = JSONValue(parsing: status) else { return status }
        let desktop = value["desktop"]
        return [value["config"], value["devices"], desktop?["snapshot"], desktop?["bridge"],
                value["attachedRegions"]].map { $0?.text ?? "-" }.joined(separator: "|")
    }

    static func daemonLine(connected: Bool, detail: String) -> String {
        "{\"type\":\"view-daemon\",\"connected\":\(connected),\"detail\":\(JSONLine.quoted(detail))}"
    }
}
