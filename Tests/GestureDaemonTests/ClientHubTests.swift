import Foundation
import Logging
import Testing
import GesturePosix
import GestureCore
import GestureConfig
@testable import GestureDaemon
import GestureProtocol

/// A real client hub on a real socket in a temporary directory, served in-process by `service()`
/// (no daemon, no thread): what the hub does is seen as it happens. Close it with `hub.closeAll()`.
final class InProcessHub {
    let dir = TempDir()
    let path: String
    let settings: SocketSettings
    let epoll: Epoll
    let hub: ClientHub

    init(queueLimit: Int) throws {
        path = dir.file("hub.sock")
        settings = SocketSettings(path: path, mode: 0o600, clientQueueLimit: queueLimit)
        epoll = try Epoll()
        hub = try ClientHub(listenFD: try ClientHub.listen(path: path, settings: settings), socketPath: path,
                            settings: settings, epoll: epoll, logger: Logger(label: "test.hub"))
    }

    /// Handles whatever the sockets have ready now.
    func service() throws {
        for (fd, events) in try epoll.wait(timeout: 0) {
            if fd == hub.listenFD { hub.acceptAll() } else { hub.handle(fd: fd, events: events) }
        }
    }
}

/// The socket hub in-process: publish many lines to a client that does not read, on its socket or
/// on a stream pipe passed to it through the real kernel (SCM_RIGHTS).
@Suite struct ClientHubTests {
    @Test(arguments: ["socket", "pipe"])
    func aSlowSubscriberLosesLinesAndIsToldHowMany(stream: String) throws {
        let served = try InProcessHub(queueLimit: 16)
        let hub = served.hub
        defer { hub.closeAll() }
        func service() throws { try served.service() }
        let client = try ControlClient(path: served.path)
        try service()
        #expect(hub.clients.count == 1)
        #expect(try client.readLine(timeout: 2000) == DaemonVersion.helloLine)
        try client.send(#"{"request":"subscribe","gestures":["pan"],"stream":"\#(stream)"}"#)
        #expect(waitUntil(timeout: 2) { (try? service()) != nil && hub.hasSubscriber })
        #expect(json(try client.readLine(timeout: 2000))["request"] as? String == "subscribe")
        #expect(client.readStreamFromPassedPipe() == (stream == "pipe"))

        // 20 000 lines of ~200 bytes: far more than the socket buffer plus 16 queued lines.
        let total = 20_000
        for i in 0..<total {
            let e = GestureEvent(gesture: i % 2 == 0 ? "pan" : "tap", kind: .pan, state: .changed,
                                 time: Timestamp(microseconds: Int64(i)), device: "d", region: "r", fingers: 1,
                                 translation: Point(x: Double(i), y: 0))
            hub.publish(.gesture(e))
        }
        #expect(hub.largestQueue <= 17)
        var received = 0
        var dropped = 0
        var sawTap = false
        let done = waitUntil(timeout: 20) {
            try? service()
            while let line = try? client.readLine(timeout: 5) {
                let object = json(line)
                if object["type"] as? String == "dropped" { dropped += object["count"] as? Int ?? 0 }
                if object["type"] as? String == "gesture" {
                    received += 1
                    if object["gesture"] as? String == "tap" { sawTap = true }
                }
            }
            return received + dropped == total / 2
        }
        #expect(done, "received \(received) + dropped \(dropped) != \(total / 2)")
        #expect(dropped > 0)
        #expect(!sawTap)
    }

    /// Through the real kernel: the read end arrives with the reply, lines come through it, and
    /// closing it (the reader leaving) is seen by epoll on the write end and disconnects the client.
    @Test func aClientClosingItsStreamPipeIsDisconnectedAndNothingStaysOpen() throws {
        let served = try InProcessHub(queueLimit: 16)
        let hub = served.hub
        defer { hub.closeAll() }
        let client = try ControlClient(path: served.path)
        try served.service()
        #expect(try client.readLine(timeout: 2000) == DaemonVersion.helloLine)
        try client.send(#"{"request":"subscribe","stream":"pipe"}"#)
        #expect(waitUntil(timeout: 2) { (try? served.service()) != nil && hub.hasSubscriber })
        #expect(json(try client.readLine(timeout: 2000))["stream"] as? String == "pipe")
        #expect(client.readStreamFromPassedPipe())
        let event = GestureEvent(gesture: "pan", kind: .pan, state: .began, time: Timestamp(microseconds: 1),
                                 device: "d", region: "r", fingers: 1)
        hub.publish(.gesture(event))
        #expect(try client.readLine(timeout: 2000) == event.jsonLine)
        #expect(hub.streamOwners.count == 1)
        client.closeStreamPipe()
        #expect(waitUntil(timeout: 2) { (try? served.service()) != nil && hub.clients.isEmpty })
        #expect(hub.streamOwners.isEmpty)
    }
}
