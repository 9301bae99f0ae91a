import Testing
import GestureProtocol
import GestureCore
import GesturePosix
@testable import GestureDaemon

/// Streaming through a pipe (docs/protocol.md, "Streaming through a pipe") in the real client hub
/// over a scripted kernel: the read end passed with the subscribe reply, streamed lines in the pipe
/// and replies on the socket, the pipe's own back-pressure, the end of the pipe, and no descriptor
/// left open whatever happens.
@Suite struct StreamPipeScriptedTests {
    static let event = GestureEvent(gesture: "pan", kind: .pan, state: .changed, time: Timestamp(microseconds: 1),
                                    device: "d", region: "r", fingers: 1)

    /// A subscribed client on a stream pipe, its hello and reply taken.
    static func pipedClient(_ scripted: ScriptedHub, request: String = #"{"request":"subscribe","stream":"pipe","id":7}"#)
        throws -> (ScriptedKernel.Peer, [String]) {
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        _ = peer.take()
        peer.send(request + "\n")
        #expect(try scripted.runUntilIdle())
        return (peer, peer.take())
    }

    /// Descriptors the hub itself holds, whatever its clients: the listener, epoll, the spare.
    static func baseline(_ scripted: ScriptedHub) -> Set<FileDescriptor> {
        var open: Set<FileDescriptor> = [scripted.kernel.listener, scripted.epoll.fd]
        if let spare = scripted.hub.spareDescriptor { open.insert(spare) }
        return open
    }

    @Test func theReplyCarriesTheReadEndAndStreamedLinesGoThroughThePipe() throws {
        let scripted = try ScriptedHub()
        let (peer, replies) = try Self.pipedClient(scripted)
        #expect(replies.count == 1)
        #expect(json(replies.first)["stream"] as? String == "pipe")
        #expect(json(replies.first)["id"] as? Int == 7)
        // Passed with the reply's first byte, and the daemon's copy of the read end closed.
        let pipe = try #require(peer.streamPipe)
        #expect(peer.socket.passed.map(\.at) == [0])
        #expect(!scripted.kernel.open.contains(pipe.read))
        scripted.hub.publish(.gesture(Self.event))
        scripted.hub.publish(.gesture(Self.event))
        #expect(pipe.take() == [Self.event.jsonLine, Self.event.jsonLine])
        // Requests are still answered on the socket, and nothing streamed goes there.
        peer.send(#"{"request":"status","id":8}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(peer.take().map { json($0)["id"] as? Int } == [8])
        #expect(pipe.take().isEmpty)
    }

    /// The read end goes with the reply even when lines queued before it must be sent first.
    @Test func aReplyBehindQueuedLinesStillCarriesTheReadEnd() throws {
        let scripted = try ScriptedHub()
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        _ = peer.take()
        peer.send(#"{"request":"subscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        _ = peer.take()
        peer.allow(10)
        scripted.hub.publish(.gesture(Self.event))  // ten bytes sent, the rest queued on the socket
        peer.send(#"{"request":"subscribe","stream":"pipe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(peer.socket.passed.isEmpty)
        peer.allow(Int.max)
        #expect(try scripted.runUntilIdle())
        let lines = peer.take()
        #expect(lines.count == 2)
        #expect(lines.first == Self.event.jsonLine)
        // The descriptor came with the reply's first byte, not with the line before it.
        let lineLength = Self.event.jsonLine.utf8.count + 1
        #expect(peer.socket.passed.map(\.at) == [lineLength])
        #expect(json(lines.last)["stream"] as? String == "pipe")
    }

    @Test func aFullPipeKeepsLinesUntilItDrainsThenTellsWhatWasDropped() throws {
        let scripted = try ScriptedHub(queueLimit: 8)
        let (peer, _) = try Self.pipedClient(scripted)
        let pipe = try #require(peer.streamPipe)
        pipe.allow(10)  // part of the first line, then EAGAIN
        for _ in 0..<20 { scripted.hub.publish(.gesture(Self.event)) }
        let client = try #require(scripted.connection(peer))
        #expect(client.stream?.output.count == 8)
        #expect(scripted.kernel.interest[pipe.write] == .writable)
        // The socket is not held up: a request is answered meanwhile.
        peer.send(#"{"request":"status","id":1}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(peer.take().count == 1)
        pipe.allow(Int.max)
        #expect(try scripted.runUntilIdle())
        let lines = pipe.take()
        #expect(lines.count == 9)
        #expect(lines.first == Self.event.jsonLine)
        #expect(json(lines.last)["type"] as? String == "dropped")
        #expect(json(lines.last)["count"] as? Int == 12)
        #expect(scripted.kernel.interest[pipe.write] == [])
    }

    @Test func aReaderClosingThePipeDisconnectsOnlyThatClient() throws {
        let scripted = try ScriptedHub()
        let (leaving, _) = try Self.pipedClient(scripted)
        let (staying, _) = try Self.pipedClient(scripted)
        let leavingPipe = try #require(leaving.streamPipe)
        leavingPipe.readerClosed = true
        // Found by epoll (EPOLLERR on the write end) before any line is written.
        #expect(try scripted.runUntilIdle())
        #expect(leaving.isClosedByDaemon)
        #expect(leavingPipe.writerClosed)
        scripted.hub.publish(.gesture(Self.event))
        #expect(staying.streamPipe?.take() == [Self.event.jsonLine])
        #expect(scripted.hub.clientCount == 1)
    }

    @Test func aWriteToAPipeWhoseReaderLeftDisconnectsTheClient() throws {
        let scripted = try ScriptedHub()
        let (peer, _) = try Self.pipedClient(scripted)
        let pipe = try #require(peer.streamPipe)
        pipe.readerClosed = true
        scripted.hub.publish(.gesture(Self.event))  // EPIPE at once
        #expect(peer.isClosedByDaemon)
        #expect(scripted.kernel.open == Self.baseline(scripted))
    }

    /// With lines already waiting for the pipe, the next line's write finds the reader gone:
    /// the client is disconnected there and then, not left to the next turn of the loop.
    @Test func aReaderLeavingWhileLinesWaitIsFoundByTheNextWrite() throws {
        let scripted = try ScriptedHub()
        let (peer, _) = try Self.pipedClient(scripted)
        let pipe = try #require(peer.streamPipe)
        pipe.allow(10)
        scripted.hub.publish(.gesture(Self.event))  // ten bytes written, the rest queued
        pipe.readerClosed = true
        scripted.hub.publish(.gesture(Self.event))
        #expect(peer.isClosedByDaemon)
        #expect(scripted.kernel.open == Self.baseline(scripted))
    }

    @Test func resubscribingEndsThePipeAndUnsubscribingEndsItToo() throws {
        let scripted = try ScriptedHub()
        let (peer, _) = try Self.pipedClient(scripted)
        let first = try #require(peer.streamPipe)
        peer.send(#"{"request":"subscribe","stream":"pipe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        let second = try #require(peer.streamPipe)
        #expect(first !== second)
        #expect(first.writerClosed)
        scripted.hub.publish(.gesture(Self.event))
        #expect(second.take() == [Self.event.jsonLine])
        // Back on the socket.
        peer.send(#"{"request":"subscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(second.writerClosed)
        _ = peer.take()
        scripted.hub.publish(.gesture(Self.event))
        #expect(peer.take() == [Self.event.jsonLine])
        // A pipe again, then unsubscribe: the pipe ends and nothing is streamed.
        peer.send(#"{"request":"subscribe","stream":"pipe"}"# + "\n" + #"{"request":"unsubscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        let third = try #require(peer.streamPipe)
        #expect(third.writerClosed)
        #expect(scripted.connection(peer)?.stream == nil)
        var open = Self.baseline(scripted)
        open.insert(try #require(peer.fd))
        #expect(scripted.kernel.open == open)
    }

    @Test func aBadStreamValueOrNoPipeIsAnErrorThatChangesNothing() throws {
        let scripted = try ScriptedHub()
        let (peer, replies) = try Self.pipedClient(scripted, request: #"{"request":"subscribe","stream":"fifo"}"#)
        #expect(json(replies.first)["type"] as? String == "error")
        #expect((json(replies.first)["message"] as? String)?.contains(#""stream" must be "socket" or "pipe", got 'fifo'"#) == true)
        #expect(scripted.connection(peer)?.subscribed == false)
        scripted.kernel.pipeFailure = .tooManyOpenFiles
        peer.send(#"{"request":"subscribe","stream":"pipe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        let error = json(peer.take().first)
        #expect((error["message"] as? String)?.contains("could not make the stream pipe") == true)
        #expect(scripted.connection(peer)?.subscribed == false)
        #expect(peer.socket.passed.isEmpty)
    }

    /// However a piped client leaves (before its reply is sent, mid-stream, with lines queued for
    /// the pipe, after ending its input), every descriptor the daemon made for it is closed.
    @Test func nothingIsLeftOpenWhenPipedClientsLeave() throws {
        let scripted = try ScriptedHub(queueLimit: 4)
        // Leaves before the reply carrying the read end could be sent.
        let early = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        _ = early.take()
        early.allow(0)
        early.send(#"{"request":"subscribe","stream":"pipe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(early.socket.passed.isEmpty)
        early.vanish()
        // Leaves with lines queued for its pipe.
        let (queued, _) = try Self.pipedClient(scripted)
        queued.streamPipe?.allow(0)
        for _ in 0..<10 { scripted.hub.publish(.gesture(Self.event)) }
        queued.vanish()
        // Finishes sending: kept while subscribed (its lines still come), closed once it hangs up.
        let (finished, _) = try Self.pipedClient(scripted)
        finished.finishSending()
        #expect(try scripted.runUntilIdle())
        #expect(!finished.isClosedByDaemon)
        finished.vanish()
        #expect(try scripted.runUntilIdle())
        for peer in [early, queued, finished] { #expect(peer.isClosedByDaemon) }
        #expect(scripted.kernel.pipes.allSatisfy { $0.writerClosed })
        #expect(scripted.kernel.open == Self.baseline(scripted))
        #expect(scripted.hub.streamOwners.isEmpty)
    }
}
