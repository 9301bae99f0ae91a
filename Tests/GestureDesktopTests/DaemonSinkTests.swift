import GestureCore
import Foundation
import GestureDesktop
import GestureProtocol
import Testing

/// The bridge's side of the daemon socket, against a daemon made of data: a greeting, a reply per
/// line, a refusal, `desktop-replaced`, a daemon that goes away.
@Suite struct DaemonSinkTests {
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ bytes: [UInt8]) {
            lock.lock()
            lines += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }
    }

    static let hello = Array("{\"type\":\"hello\",\"version\":1}\n".utf8)

    static func scene(_ windows: Int) -> Desktop {
        Desktop(outputs: [DesktopOutput(name: "HEADLESS-1", x: 0, y: 0, width: 1280, height: 720)],
                     windows: (0..<windows).map { DesktopWindow(id: String($0), app: "a", title: "", output: "HEADLESS-1",
                                                                 x: 0, y: 0, width: 10, height: 10, stack: $0) })
    }

    /// The bridge between snapshots looks at the daemon's socket only when it is readable: a
    /// hang-up read there must be seen as one (a look with no wait still reads), or the bridge
    /// spins on the readable, dead socket.
    @Test func aDaemonThatHangsUpIsSeenByALookWithNoWait() throws {
        let dir = try FakeLineServer.directory()
        let daemon = try FakeLineServer(path: dir + "/gestured.sock", greeting: Self.hello) { _ in ([], false) }
        let sink = DaemonSink(path: daemon.path, timeout: 2000) { _ in }
        #expect(sink.reopen())
        #expect(sink.service() == .nothing)
        daemon.stop()
        #expect(sink.service() == .gone)
        #expect(sink.descriptor == nil)
        #expect(!sink.isReady)
    }

    @Test func eachPartIsSentAndItsReplyRead() throws {
        let received = Received()
        let dir = try FakeLineServer.directory()
        let daemon = try FakeLineServer(path: dir + "/gestured.sock", greeting: Self.hello) { bytes in
            received.add(bytes)
            let count = String(decoding: bytes, as: UTF8.self).split(separator: "\n").count
            return (Array(String(repeating: "{\"type\":\"response\",\"request\":\"desktop\",\"ok\":true}\n", count: count).utf8), false)
        }
        defer { daemon.stop() }
        var log: [String] = []
        let sink = DaemonSink(path: daemon.path, timeout: 2000) { log.append($0) }
        #expect(!sink.isReady)
        #expect(sink.reopen())
        let (lines, _) = DesktopSnapshot.lines(for: Self.scene(250), backend: "sway", snapshot: 1)
        #expect(lines.count == 3)
        #expect(sink.send(lines) == .nothing)
        #expect(received.all == lines)
        #expect(sink.service() == .nothing)
        #expect(log.isEmpty)
    }

    @Test func aRefusalIsLoggedAndTheConnectionKept() throws {
        let dir = try FakeLineServer.directory()
        let daemon = try FakeLineServer(path: dir + "/gestured.sock", greeting: Self.hello) { _ in
            (Array("{\"type\":\"error\",\"request\":\"desktop\",\"message\":\"unknown request 'desktop'\"}\n".utf8), false)
        }
        defer { daemon.stop() }
        var log: [String] = []
        let sink = DaemonSink(path: daemon.path, timeout: 2000) { log.append($0) }
        #expect(sink.reopen())
        #expect(sink.send(DesktopSnapshot.lines(for: Self.scene(1), backend: "sway", snapshot: 1).lines) == .nothing)
        #expect(sink.isReady)
        #expect(log == ["the daemon refused the snapshot: unknown request 'desktop'"])
    }

    @Test func replacedAndGone() throws {
        let dir = try FakeLineServer.directory()
        let replaced = try FakeLineServer(path: dir + "/replaced.sock",
                                          greeting: Self.hello + Array("{\"type\":\"desktop-replaced\",\"seat\":\"seat0\",\"by\":9}\n".utf8)) { _ in ([], false) }
        defer { replaced.stop() }
        let sink = DaemonSink(path: replaced.path, timeout: 2000) { _ in }
        #expect(sink.reopen())
        var news = SinkNews.nothing
        let deadline = Date().addingTimeInterval(5)
        while news == .nothing && Date() < deadline { news = sink.service() }
        #expect(news == .replaced("{\"type\":\"desktop-replaced\",\"seat\":\"seat0\",\"by\":9}"))

        let gone = try FakeLineServer(path: dir + "/gone.sock", greeting: Self.hello) { _ in ([], true) }
        defer { gone.stop() }
        let goneSink = DaemonSink(path: gone.path, timeout: 2000) { _ in }
        #expect(goneSink.reopen())
        #expect(goneSink.send(DesktopSnapshot.lines(for: Self.scene(1), backend: "sway", snapshot: 1).lines) == .gone)
        #expect(!goneSink.isReady)
        #expect(!DaemonSink(path: dir + "/nobody.sock") { _ in }.reopen())
    }
}
