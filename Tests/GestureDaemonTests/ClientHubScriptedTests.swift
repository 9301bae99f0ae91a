import Glibc
import Testing
import GestureProtocol
import GestureCore
import GesturePosix
@testable import GestureDaemon

/// The real client hub over a scripted kernel (ScriptedKernel.swift): back-pressure, the line
/// limit under every read split, the owner's slots, and the socket error paths (EAGAIN, EINTR,
/// EPIPE / ECONNRESET from a vanished peer, EMFILE), deterministically and in process.
@Suite struct ClientHubScriptedTests {
    static let hello = DaemonVersion.helloLine

    @Test func twentyThousandPipelinedRequestsAreAllAnsweredAndInputWaitsInTheKernel() throws {
        let scripted = try ScriptedHub(queueLimit: 64)
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        #expect(peer.take() == [Self.hello])
        let total = 20_000
        for i in 0..<total { peer.send(#"{"request":"status","id":\#(i)}"# + "\n") }
        var replies: [String] = []
        var mostBuffered = 0
        var mostQueued = 0
        var mostLeftInKernel = 0
        // A slow reader: 3 KB at a time.
        for _ in 0..<100_000 where replies.count < total {
            peer.allow(3000)
            try scripted.turn()
            replies += peer.take()
            if let client = scripted.connection(peer) {
                mostBuffered = max(mostBuffered, client.input.bufferedCount)
                mostQueued = max(mostQueued, client.output.count)
            }
            mostLeftInKernel = max(mostLeftInKernel, peer.socket.unread)
        }
        #expect(replies.count == total)
        #expect(replies.enumerated().allSatisfy { json($1)["id"] as? Int == $0 && json($1)["ok"] as? Bool == true },
                "replies out of order or not responses; first: \(replies.first ?? "none")")
        // Back-pressure: the daemon held at most one read beyond a line, and its queue stayed
        // bounded; the rest waited in the kernel (the client's own socket buffer).
        #expect(mostBuffered <= ClientHub.readSize)
        #expect(mostQueued <= 64)
        #expect(mostLeftInKernel > 300_000)
    }

    @Test(arguments: [3, 1000, 4096, 16_383, 16_384, 65_535, 65_536, 65_537, Int.max])
    func theLineLimitIsTheSameWhateverTheReadSplit(readSize: Int) throws {
        for length in [65_536, 65_537, 70_000, 100_000, 300_000] where readSize > 100 || length <= 70_000 {
            let scripted = try ScriptedHub()
            let peer = scripted.kernel.connect(uid: 0)
            peer.readsSplit(every: readSize)
            #expect(try scripted.runUntilIdle())
            _ = peer.take()
            peer.send(SocketAbuseTests.paddedStatus(length: length, id: "long") + "\n")
            peer.send(#"{"request":"status","id":"after"}"# + "\n")
            #expect(try scripted.runUntilIdle())
            let lines = peer.take().map { json($0) }
            if length <= ClientHub.maximumLineLength {
                #expect(lines.map { $0["id"] as? String } == ["long", "after"], "\(length) bytes read \(readSize) at a time")
            } else {
                #expect(lines.count == 2, "\(length) bytes read \(readSize) at a time: \(lines)")
                #expect((lines.first?["message"] as? String)?.contains("longer than 65536 bytes") == true)
                #expect(lines.last?["id"] as? String == "after")
            }
            #expect((scripted.connection(peer)?.input.bufferedCount ?? 0) == 0)
        }
    }

    @Test func repliesKeepTheOrderOfRequestsWhateverAnswersThem() throws {
        let scripted = try ScriptedHub()
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        _ = peer.take()
        peer.send(#"{"request":"status","id":1}"# + "\n" + #"{"request":"subscribe","id":2}"# + "\n"
                  + #"{"request":"devices","id":3}"# + "\n" + #"{"request":"explain","id":4}"# + "\n" + "nonsense\n"
                  + #"{"request":"hit-test","id":6,"x":1,"y":2}"# + "\n")
        #expect(try scripted.runUntilIdle())
        let lines = peer.take().map { json($0) }
        #expect(lines.map { $0["id"] as? Int } == [1, 2, 3, 4, nil, 6])
        #expect(lines.map { $0["request"] as? String } == ["status", "subscribe", "devices", "explain", nil, "hit-test"])
        #expect(scripted.events == [.subscribed(scripted.connection(peer)!.info), .explainWanted(true)])
    }

    @Test func theOwnerGetsInWhenEverySharedSlotIsTaken() throws {
        let daemonUID = getuid()
        let other: UInt32 = daemonUID == 1000 ? 1001 : 1000
        let scripted = try ScriptedHub()
        var peers = (0..<ClientAdmission.sharedSlots).map { _ in scripted.kernel.connect(uid: other) }
        #expect(try scripted.runUntilIdle())
        #expect(scripted.hub.clientCount == 512)
        let late = scripted.kernel.connect(uid: other)
        let root = scripted.kernel.connect(uid: 0)
        let owner = scripted.kernel.connect(uid: daemonUID)
        #expect(try scripted.runUntilIdle())
        #expect((json(late.take().first)["message"] as? String)?.contains("too many clients") == true)
        #expect(late.isClosedByDaemon)
        #expect(root.take() == [Self.hello])
        #expect(owner.take() == [Self.hello])
        // The owner's reserve is bounded too.
        peers += (0..<ClientAdmission.ownerSlots).map { _ in scripted.kernel.connect(uid: 0) }
        #expect(try scripted.runUntilIdle())
        #expect(scripted.hub.clientCount == ClientAdmission.sharedSlots + ClientAdmission.ownerSlots)
        #expect(peers.suffix(ClientAdmission.ownerSlots).filter(\.isClosedByDaemon).count == 2)
        // Once a shared client leaves, anyone may take its slot again... after the owners' excess.
        root.vanish()
        owner.vanish()
        peers[0].vanish()
        #expect(try scripted.runUntilIdle())
        #expect(scripted.hub.clientCount == ClientAdmission.sharedSlots + ClientAdmission.ownerSlots - 3)
    }

    @Test func peersNotAllowedAreRefusedWithTheReason() throws {
        let scripted = try ScriptedHub(allowedUIDs: [1000])
        let stranger = scripted.kernel.connect(uid: 4242 == getuid() ? 4243 : 4242)
        let listed = scripted.kernel.connect(uid: 1000)
        #expect(try scripted.runUntilIdle())
        #expect((json(stranger.take().first)["message"] as? String)?.hasPrefix("permission denied: uid 424") == true)
        #expect(stranger.isClosedByDaemon)
        #expect(listed.take() == [Self.hello])
    }

    @Test func aFullSocketKeepsLinesUntilItDrainsThenTellsWhatWasDropped() throws {
        let scripted = try ScriptedHub(queueLimit: 8)
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        peer.send(#"{"request":"subscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(peer.take().count == 2)
        peer.allow(0)  // EAGAIN from now on
        let event = GestureEvent(gesture: "pan", kind: .pan, state: .changed, time: Timestamp(microseconds: 1),
                                 device: "d", region: "r", fingers: 1)
        for _ in 0..<20 { scripted.hub.publish(.gesture(event)) }
        #expect(scripted.connection(peer)?.output.count == 8)
        #expect(scripted.connection(peer)?.interest.contains(.writable) == true)
        peer.allow(Int.max)
        #expect(try scripted.runUntilIdle())
        let lines = peer.take()
        #expect(lines.count == 9)
        #expect(json(lines.last) ["type"] as? String == "dropped")
        #expect(json(lines.last)["count"] as? Int == 12)
        #expect(scripted.connection(peer)?.interest == .readable)
    }

    /// A streamed line goes straight to an idle client's socket; when the socket takes only part of
    /// it, the rest waits in the queue and follows once there is room: the line arrives whole, once,
    /// and the next line comes after it.
    @Test func aLineTheSocketTakesPartOfArrivesWholeOnceThereIsRoom() throws {
        let scripted = try ScriptedHub()
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        peer.send(#"{"request":"subscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(peer.take().count == 2)
        let first = GestureEvent(gesture: "pan", kind: .pan, state: .began, time: Timestamp(microseconds: 1),
                                 device: "d", region: "r", fingers: 1)
        var second = first
        second.state = .changed
        peer.allow(10)  // ten bytes of the first line, then EAGAIN
        scripted.hub.publish(.gesture(first))
        #expect(scripted.connection(peer)?.output.count == 1)
        #expect(scripted.connection(peer)?.interest.contains(.writable) == true)
        scripted.hub.publish(.gesture(second))
        peer.allow(Int.max)
        #expect(try scripted.runUntilIdle())
        #expect(peer.take() == [first.jsonLine, second.jsonLine])
        #expect(scripted.connection(peer)?.interest == .readable)
    }

    @Test func aPeerVanishingMidWriteCostsOnlyThatPeer() throws {
        let scripted = try ScriptedHub()
        let (midLine, betweenLines, staying) = try Self.threeSubscribers(scripted)
        let event = GestureEvent(gesture: "pan", kind: .pan, state: .changed, time: Timestamp(microseconds: 1),
                                 device: "d", region: "r", fingers: 1)
        // One peer takes part of a line, then leaves; the other leaves between lines.
        midLine.allow(10)
        scripted.hub.publish(.gesture(event))
        midLine.vanish()
        betweenLines.vanish()
        let sends = scripted.kernel.calls["send"] ?? 0
        scripted.hub.publish(.gesture(event))
        // The write to the peer that left between lines failed (EPIPE) and closed it at once.
        #expect(betweenLines.isClosedByDaemon)
        #expect((scripted.kernel.calls["send"] ?? 0) > sends)
        // The half-written one is found gone on the next turn of the loop.
        #expect(try scripted.runUntilIdle())
        #expect(midLine.isClosedByDaemon)
        #expect(staying.take().filter { $0.contains("\"gesture\"") }.count == 2)
        #expect(scripted.hub.clientCount == 1)
        for peer in [midLine, betweenLines] { #expect(!scripted.kernel.interest.keys.contains { $0 == peer.fd }) }
    }

    /// Three peers connected and subscribed, what they were sent so far taken.
    static func threeSubscribers(_ scripted: ScriptedHub) throws
        -> (ScriptedKernel.Peer, ScriptedKernel.Peer, ScriptedKernel.Peer) {
        let peers = (0..<3).map { _ in scripted.kernel.connect(uid: 0) }
        #expect(try scripted.runUntilIdle())
        for peer in peers { peer.send(#"{"request":"subscribe"}"# + "\n") }
        #expect(try scripted.runUntilIdle())
        for peer in peers { _ = peer.take() }
        return (peers[0], peers[1], peers[2])
    }

    /// Gesture lines go to the hub's list of subscribers: a client that unsubscribed or left is off
    /// it, and costs no write.
    @Test func onlyClientsStillSubscribedAreWrittenTo() throws {
        let scripted = try ScriptedHub()
        let (leaving, unsubscribing, staying) = try Self.threeSubscribers(scripted)
        // Subscribing twice does not send every line twice.
        staying.send(#"{"request":"subscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        _ = staying.take()
        leaving.vanish()
        unsubscribing.send(#"{"request":"unsubscribe"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(leaving.isClosedByDaemon)
        #expect(json(unsubscribing.take().first)["request"] as? String == "unsubscribe")
        let sends = scripted.kernel.calls["send"] ?? 0
        let event = GestureEvent(gesture: "pan", kind: .pan, state: .changed, time: Timestamp(microseconds: 1),
                                 device: "d", region: "r", fingers: 1)
        scripted.hub.publish(.gesture(event))
        scripted.hub.publish(gesture: event)
        #expect((scripted.kernel.calls["send"] ?? 0) == sends + 2)
        #expect(staying.take() == [event.jsonLine, event.jsonLine])
        #expect(unsubscribing.take().isEmpty)
        #expect(scripted.hub.subscribers.map(\.id) == [scripted.connection(staying)?.id])
    }

    @Test func aPeerResetWhileSendingIsDroppedQuietly() throws {
        let scripted = try ScriptedHub()
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        peer.send(#"{"request":"sta"#)
        peer.vanish()  // ECONNRESET on the next read
        #expect(try scripted.runUntilIdle())
        #expect(peer.isClosedByDaemon)
        #expect(scripted.hub.clientCount == 0)
    }

    @Test func anAnswerForAClientThatLeftIsDropped() throws {
        let scripted = try ScriptedHub()
        let peer = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        peer.send(#"{"request":"status"}"# + "\n")
        peer.vanish()
        // The request is read (it was sent before the peer left) and handed to the owner; the
        // hang-up that epoll reports next ends the client before the owner answers.
        let fd = try #require(peer.fd)
        scripted.hub.handle(fd: fd, events: [.readable, .hangUp])
        guard case .request(let pending) = scripted.hub.nextEvent() else {
            Issue.record("no request event")
            return
        }
        #expect(scripted.connection(peer)?.interest == [])
        scripted.hub.handle(fd: fd, events: [.hangUp])
        #expect(scripted.hub.clientCount == 0)
        #expect(peer.isClosedByDaemon)
        scripted.hub.reply(to: pending, with: ProtocolLine.response("status"))  // must not crash or write
        #expect(scripted.hub.clientCount == 0)
        // The owner hears that the client left (its attached regions go with it), and nothing else.
        #expect(scripted.hub.nextEvent() == .disconnected(pending.client))
        #expect(scripted.hub.nextEvent() == nil)
    }

    @Test func interruptedCallsAreRetriedAndNothingIsLost() throws {
        let scripted = try ScriptedHub()
        scripted.kernel.interrupt("accept4", times: 2)
        scripted.kernel.interrupt("epoll_wait", times: 1)
        let peer = scripted.kernel.connect(uid: 0)
        try scripted.turn()                      // interrupted wait: no events, no harm
        #expect(try scripted.runUntilIdle())
        #expect(peer.take() == [Self.hello])
        scripted.kernel.interrupt("recv", times: 3)
        scripted.kernel.interrupt("send", times: 3)
        let sendsBefore = scripted.kernel.calls["send"] ?? 0
        peer.send(#"{"request":"status","id":"x"}"# + "\n")
        #expect(try scripted.runUntilIdle())
        #expect(json(peer.take().first)["id"] as? String == "x")
        #expect((scripted.kernel.calls["send"] ?? 0) - sendsBefore == 4)
        #expect((scripted.kernel.calls["accept4"] ?? 0) >= 3)
    }

    @Test func runningOutOfDescriptorsRefusesTheConnectionInsteadOfSpinning() throws {
        let scripted = try ScriptedHub()
        let first = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        scripted.kernel.descriptorLimit = scripted.kernel.open.count  // nothing more can be opened
        let refused = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle(limit: 50), "the loop kept waking for the listening socket")
        #expect((json(refused.take().first)["message"] as? String)?.contains("out of file descriptors") == true)
        #expect(refused.isClosedByDaemon)
        #expect(first.take() == [Self.hello])
        // Once a descriptor is free again, clients get in as before.
        scripted.kernel.descriptorLimit = Int.max
        let later = scripted.kernel.connect(uid: 0)
        #expect(try scripted.runUntilIdle())
        #expect(later.take() == [Self.hello])
    }
}
