import Foundation
import Glibc
import Testing
@testable import GestureView

/// The view's server over real TCP sockets (docs/view.md, "Security"): the token, the Origin and
/// the Host are checked before anything is served; it listens on loopback only; the WebSocket
/// carries the feed's lines, the kept replies first.
@Suite(.serialized) struct ViewServerTests {
    /// A server on a free port with a page in a temporary directory.
    static func startServer(feed: ViewFeed = ViewFeed()) async throws -> ViewServer {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("view-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("<title>gestured view</title>".utf8).write(to: dir.appendingPathComponent("index.html"))
        try Data("// js".utf8).write(to: dir.appendingPathComponent("view.js"))
        let server = try ViewServer(port: 0, feed: feed, assets: dir.path)
        try await server.start()
        return server
    }

    @Test func aRequestWithoutTheTokenIsRefused() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let port = server.boundPort
        let bare = try HTTPProbe.get(port: port, path: "/")
        #expect(bare.status == 403, "\(bare)")
        #expect(bare.body.contains("token"))
        let wrong = try HTTPProbe.get(port: port, path: "/" + String(server.token.reversed()) + "/")
        #expect(wrong.status == 403, "\(wrong)")
        let short = try HTTPProbe.get(port: port, path: "/" + server.token.prefix(63) + "/view.js")
        #expect(short.status == 403, "\(short)")
        let page = try HTTPProbe.get(port: port, path: "/\(server.token)/")
        #expect(page.status == 200, "\(page)")
        #expect(page.body.contains("gestured view"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true, "\(page.headers)")
        let script = try HTTPProbe.get(port: port, path: "/\(server.token)/view.js")
        #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true, "\(script)")
        // The one path without the token: the icon browsers ask for, answered empty.
        let icon = try HTTPProbe.get(port: port, path: "/favicon.ico")
        #expect(icon.status == 204 && icon.body.isEmpty, "\(icon)")
        let other = try HTTPProbe.get(port: port, path: "/\(server.token)/../../etc/passwd")
        #expect(other.status != 200, "\(other)")
    }

    @Test func aForeignOriginOrHostIsRefused() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let port = server.boundPort
        let path = "/\(server.token)/"
        let foreign = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403, "\(foreign)")
        #expect(foreign.body.contains("Origin"))
        let otherPort = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://127.0.0.1:\(port &+ 1)"])
        #expect(otherPort.status == 403, "\(otherPort)")
        let own = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(own.status == 200, "\(own)")
        // DNS rebinding: a name that resolves to 127.0.0.1 still carries its own Host.
        let rebound = try HTTPProbe.get(port: port, path: path, host: "evil.example:\(port)")
        #expect(rebound.status == 403, "\(rebound)")
        // The stream is refused the same way before any upgrade.
        let socket = try HTTPProbe.get(port: port, path: "/\(server.token)/stream",
                                       headers: HTTPProbe.upgradeHeaders.merging(["Origin": "http://evil.example"]) { $1 })
        #expect(socket.status == 403, "\(socket)")
    }

    @Test func itListensOnLoopbackOnly() async throws {
        let server = try await Self.startServer()
        defer { Task { await server.stop() } }
        let port = server.boundPort
        #expect(port != 0)
        // Every non-loopback IPv4 address of this machine refuses the port.
        let others = HTTPProbe.nonLoopbackAddresses()
        for address in others {
            #expect(throws: HTTPProbe.Failure.self, "\(address):\(port) accepted") {
                _ = try HTTPProbe.get(port: port, path: "/\(server.token)/", address: address)
            }
        }
        // And the listening socket itself is bound to 127.0.0.1 (the whole answer when the
        // machine has no other address).
        #expect(HTTPProbe.boundAddress(port: port) == "127.0.0.1", "\(others)")
    }

    @Test func theStreamCarriesTheKeptRepliesThenTheLines() async throws {
        let feed = ViewFeed()
        feed.publish(kept: "status", #"{"type":"response","request":"status","ok":true,"version":"1"}"#)
        feed.publish(kept: "hello", #"{"type":"hello","protocol":1}"#)
        let server = try await Self.startServer(feed: feed)
        defer { Task { await server.stop() } }
        let socket = try WebSocketProbe(port: server.boundPort, path: "/\(server.token)/stream",
                                        origin: "http://127.0.0.1:\(server.boundPort)")
        #expect(try socket.nextText() == #"{"type":"hello","protocol":1}"#)
        #expect(try socket.nextText() == #"{"type":"response","request":"status","ok":true,"version":"1"}"#)
        #expect(waitUntil { feed.pageCount == 1 })
        let touch = #"{"type":"touch","phase":"began","id":3,"location":{"x":10,"y":20},"region":"screen","device":"pad"}"#
        feed.publish(touch)
        #expect(try socket.nextText() == touch)
    }

    @Test func aSlowPageDropsAndIsToldHowMany() async throws {
        let queue = PageQueue(limit: 4)
        for i in 0..<10 { queue.push("line \(i)") }
        var got: [String] = []
        for _ in 0..<5 { got.append(await queue.next() ?? "nil") }
        #expect(got == ["line 0", "line 1", "line 2", "line 3", #"{"type":"dropped","count":6,"by":"view"}"#])
        queue.push("line 10")
        #expect(await queue.next() == "line 10")
        queue.close()
        #expect(await queue.next() == nil)
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass.
func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
