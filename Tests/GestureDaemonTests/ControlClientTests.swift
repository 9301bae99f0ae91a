import Glibc
import Testing
import GesturePosix
import GestureProtocol

/// `ControlClient`, the blocking client gesturectl and the tests use, against a real socket whose
/// other end the test writes by hand.
@Suite struct ControlClientTests {
    /// A client connected to a listener in `dir`, and the accepted (blocking) server end.
    func connected(in dir: TempDir) throws -> (client: ControlClient, server: Int32) {
        let path = dir.file("client.sock")
        let listener = try UnixListener.listen(path: path, mode: 0o600, owner: nil, group: nil)
        defer { Glibc.close(listener.rawValue) }
        let client = try ControlClient(path: path)
        let server = accept(listener.rawValue, nil, nil)
        try #require(server >= 0, "accept: errno \(errno)")
        return (client, server)
    }

    /// Waiting with no timeout and nothing to be interrupted by (`gesturectl listen`), the client
    /// blocks in `recv` itself: lines longer than one read (64 KiB) come whole, the unterminated rest
    /// comes as a last line when the daemon closes, then the end.
    @Test(.timeLimit(.minutes(1))) func withoutATimeoutLinesOfAnyLengthTheRestAndTheEnd() throws {
        let dir = TempDir()
        let (client, server) = try connected(in: dir)
        let long = String((0..<100_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        #expect(SocketAbuseTests.sendAll(server, Array(("first\n" + long + "\nlast, unterminated").utf8)))
        Glibc.close(server)
        #expect(try client.next(timeout: -1, interruptFD: nil) == .line("first"))
        #expect(try client.next(timeout: -1, interruptFD: nil) == .line(long))
        #expect(try client.next(timeout: -1, interruptFD: nil) == .line("last, unterminated"))
        #expect(try client.next(timeout: -1, interruptFD: nil) == .end)
    }

    /// With a timeout the same stream reads the same, and nothing arriving in time is ETIMEDOUT.
    @Test func withATimeoutTheSameLinesAndNothingInTimeIsATimeout() throws {
        let dir = TempDir()
        let (client, server) = try connected(in: dir)
        #expect(throws: SystemCallError.self) { try client.next(timeout: 20, interruptFD: nil) }
        #expect(SocketAbuseTests.sendAll(server, Array("one\ntwo".utf8)))
        Glibc.close(server)
        #expect(try client.next(timeout: 5000, interruptFD: nil) == .line("one"))
        #expect(try client.next(timeout: 5000, interruptFD: nil) == .line("two"))
        #expect(try client.next(timeout: 5000, interruptFD: nil) == .end)
    }
}
