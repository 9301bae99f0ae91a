import GestureCore
import GestureDesktop
import GesturePosix
import Testing

/// The sway reader and the bridge's loop against a sway IPC server made of data on a real socket:
/// good replies, then garbage, a cut-short reply, a huge length, a server that goes away.
@Suite struct SwaySourceSocketTests {
    static let outputs = (try? Fixtures.bytes("sway-outputs.json")) ?? []
    static let tree = (try? Fixtures.bytes("sway-tiled-floating-tree.json")) ?? []

    /// A well-behaved sway, except where `tree` says otherwise for the nth GET_TREE.
    static func sway(tree: @escaping @Sendable (Int) -> [UInt8]? = { _ in I3Message.frame(type: 4, payload: SwaySourceSocketTests.tree) })
        -> @Sendable (UInt32, Int) -> [UInt8]? {
        { type, n in
            switch type {
            case 2: I3Message.frame(type: 2, payload: Array(#"{"success": true}"#.utf8))
            case 3: I3Message.frame(type: 3, payload: outputs)
            case 4: tree(n)
            default: I3Message.frame(type: type, payload: Array("[]".utf8))
            }
        }
    }

    @Test func oneSnapshotThroughTheBridge() throws {
        let server = try FakeSwayServer(answer: Self.sway())
        defer { server.stop() }
        let sink = CollectingSink()
        var options = DesktopBridge.Options()
        options.once = true
        var messages: [String] = []
        let bridge = DesktopBridge(source: SwaySource(path: server.path, dialect: .sway), sink: sink, options: options) { messages.append($0) }
        #expect(bridge.run() == 0, "\(messages)")
        #expect(sink.snapshots.count == 1)
        let line = try DesktopJSON(parsing: try #require(sink.snapshots.first?.first))
        #expect(line["backend"]?.string == "sway")
        #expect(line["windows"]?.array?.compactMap { $0["app"]?.string } == ["left-app", "right-app", "float-app"])
    }

    @Test(arguments: [
        ("garbage", Array("HTTP/1.0 200 OK\r\n\r\n".utf8), "not an i3-ipc frame"),
        ("a huge length", I3Message.magic + [0xF0, 0xFF, 0xFF, 0xFF, 4, 0, 0, 0], "over the 16777216 bytes"),
        ("JSON cut short", I3Message.frame(type: 4, payload: Array(tree.prefix(700))), "not JSON at byte 699: expected false"),
        ("JSON of the wrong shape", I3Message.frame(type: 4, payload: Array("[1,2]".utf8)), "GET_TREE: expected the root node"),
    ])
    func aBadReplyIsAnErrorNotACrash(_ what: String, _ reply: [UInt8], _ message: String) throws {
        let server = try FakeSwayServer(answer: Self.sway(tree: { _ in reply }))
        defer { server.stop() }
        let source = SwaySource(path: server.path, dialect: .sway)
        try source.connect()
        do {
            _ = try source.read()
            Issue.record("\(what) was taken for a tree")
        } catch {
            #expect(error.description.contains(message), "\(what): \(error)")
        }
    }

    @Test func aServerThatStopsAnsweringCostsTheTimeoutOnly() throws {
        let server = try FakeSwayServer(answer: Self.sway(tree: { _ in Array(I3Message.magic.prefix(3)) }))
        defer { server.stop() }
        let source = SwaySource(path: server.path, dialect: .sway)
        try source.connect()
        let start = monotonicMicroseconds()
        #expect(throws: DesktopSourceError.self) { try source.read() }
        let waited = monotonicMicroseconds() - start
        #expect(waited >= 1_900_000 && waited < 10_000_000, "waited \(waited) µs")
    }

    @Test func theBridgeLosesTheCompositorAndFindsItAgain() throws {
        // The second tree is garbage: the bridge drops the connection, then reads again.
        let server = try FakeSwayServer(answer: Self.sway(tree: { n in
            n == 1 ? Array("garbage".utf8) : I3Message.frame(type: 4, payload: SwaySourceSocketTests.tree)
        }))
        defer { server.stop() }
        let sink = CollectingSink()
        var options = DesktopBridge.Options()
        options.pollInterval = 50_000
        var messages: [String] = []
        let bridge = DesktopBridge(source: SwaySource(path: server.path, dialect: .sway), sink: sink, options: options) { messages.append($0) }
        let deadline = monotonicMicroseconds() + 10_000_000
        while sink.snapshots.count < 2 && monotonicMicroseconds() < deadline { bridge.step() }
        // The same picture after the reconnection is sent again: the daemon dropped it meanwhile.
        #expect(sink.snapshots.count == 2, "\(messages)")
        #expect(messages.contains { $0.contains("looking for the compositor again") }, "\(messages)")
        #expect(sink.snapshots.count == 2 && sink.snapshots[0].first?.contains("\"snapshot\":1") == true
                && sink.snapshots[1].first?.contains("\"snapshot\":2") == true)
    }

    @Test func noServerIsAClearErrorForOnce() throws {
        var options = DesktopBridge.Options()
        options.once = true
        var messages: [String] = []
        let bridge = DesktopBridge(source: SwaySource(path: "/nonexistent/sway-ipc.sock", dialect: .sway), sink: CollectingSink(),
                                   options: options) { messages.append($0) }
        #expect(bridge.run() == 1)
        #expect(messages.count == 1 && messages[0].contains("/nonexistent/sway-ipc.sock"), "\(messages)")
    }
}
