import Foundation
import Testing
import GestureProtocol
import GestureDaemon

/// Regions and gestures attached by clients over a real socket (`gestured run --inject`, the real
/// binary): each client's gestures reach it under its own ids, changes apply to the next touch,
/// detach and disconnect cancel what was in flight. The recording starts when `trigger` subscribes,
/// after every attach, so nothing races the touches.
@Suite(.serialized) struct AppRegionTests {
    /// Starts the injected recording (the first subscribe does) and returns the subscriber.
    static func trigger(_ daemon: DaemonProcess, subscribe: String = #"{"request":"subscribe","devices":["none"]}"#) throws
        -> ControlClient {
        let client = try daemon.connect()
        #expect(isOK(try client.request(subscribe)))
        return client
    }

    @Test func aTapInsideAnAttachedRegionReachesItsClientUnderItsOwnIdsAndOnlyThere() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.tap, "--inject-when-subscribed"])
        let inside = try daemon.connect()
        let outside = try daemon.connect()
        // Both clients use the same ids: each has its own namespace.
        let tap = #"[{"id":"press","kind":"tap"}]"#
        #expect(isOK(try inside.request(attachLine(region: "button", frame: AppFixtures.aroundTap, gestures: tap))))
        #expect(isOK(try outside.request(attachLine(region: "button", frame: AppFixtures.awayFromTap, gestures: tap))))
        _ = try Self.trigger(daemon)
        let got = try inside.lines(until: { $0["type"] as? String == "gesture" })
        let line = try #require(got.last)
        #expect(line["gesture"] as? String == "press")
        #expect(line["region"] as? String == "button")
        #expect(line["state"] as? String == "recognized")
        #expect(waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") })
        // The other client got nothing: its next line is the reply to this request.
        var skipped: [[String: Any]] = []
        #expect(isOK(try outside.request(#"{"request":"status"}"#, skipped: &skipped)))
        #expect(skipped.isEmpty, "\(skipped)")
    }

    @Test func anUpdatedFrameDecidesTheNextTouch() throws {
        // Two attaches, then the trigger's subscribe: the third starts the recording.
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.tap, "--inject-after", "3"])
        let movedIn = try daemon.connect()
        let movedOut = try daemon.connect()
        let tap = #"[{"id":"press","kind":"tap"}]"#
        #expect(isOK(try movedIn.request(attachLine(region: "win", frame: AppFixtures.awayFromTap, gestures: tap))))
        #expect(isOK(try movedOut.request(attachLine(region: "win", frame: AppFixtures.aroundTap, gestures: tap))))
        #expect(isOK(try movedIn.request(#"{"request":"update","region":"win","frame":\#(AppFixtures.aroundTap)}"#)))
        #expect(isOK(try movedOut.request(#"{"request":"update","region":"win","frame":\#(AppFixtures.awayFromTap)}"#)))
        _ = try Self.trigger(daemon)
        let got = gestureLines(try movedIn.lines(until: { $0["type"] as? String == "gesture" }))
        #expect(got.first?["gesture"] as? String == "press")
        #expect(waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") })
        var skipped: [[String: Any]] = []
        #expect(isOK(try movedOut.request(#"{"request":"status"}"#, skipped: &skipped)))
        #expect(skipped.isEmpty, "\(skipped)")
    }

    @Test func detachCancelsThePanInFlightAndRemovesTheRegion() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try AppFixtures.noGestures(in: dir),
                                                        "--inject", AppFixtures.drag, "--inject-when-subscribed"])
        let app = try daemon.connect()
        let pan = #"[{"id":"drag","kind":"pan"}]"#
        #expect(isOK(try app.request(attachLine(region: "pad", frame: #"[0, 0, "100%", "100%"]"#, gestures: pan))))
        _ = try Self.trigger(daemon)
        let began = try app.lines(until: { $0["state"] as? String == "began" })
        #expect(began.last?["gesture"] as? String == "drag")
        var streamed: [[String: Any]] = []
        let reply = try app.request(#"{"request":"detach","region":"pad","id":7}"#, skipped: &streamed)
        #expect(isOK(reply))
        #expect(reply["id"] as? Int == 7)
        let states = gestureLines(streamed).compactMap { $0["state"] as? String }
        #expect(states.last == "cancelled", "\(states)")
        #expect(!states.contains("ended"))
        // Gone: nothing more arrives for it, and it can be attached anew under the same id.
        #expect(waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") })
        var after: [[String: Any]] = []
        #expect(isOK(try app.request(#"{"request":"status"}"#, skipped: &after)))
        #expect(after.isEmpty, "\(after)")
        #expect(!isOK(try app.request(#"{"request":"detach","region":"pad"}"#)))
        #expect(isOK(try app.request(attachLine(region: "pad", frame: #"[0, 0, "100%", "100%"]"#, gestures: pan))))
    }

    @Test func disconnectingDetachesEverythingAndCancelsThePanInFlight() throws {
        let dir = TempDir()
        // The attach, then the watcher's subscribe starts the recording.
        let daemon = try DaemonProcess(extraArguments: ["--config", try AppFixtures.noGestures(in: dir),
                                                        "--inject", AppFixtures.drag, "--inject-after", "2"])
        let app = try daemon.connect()
        #expect(isOK(try app.request(attachLine(region: "pad", frame: #"[0, 0, "100%", "100%"]"#,
                                                 gestures: #"[{"id":"drag","kind":"pan"}]"#))))
        let attachedStatus = try app.request(#"{"request":"status"}"#)
        #expect(attachedStatus["attachedRegions"] as? Int == 1 && attachedStatus["attachedGestures"] as? Int == 1,
                "\(attachedStatus)")
        // A second client watches the touch stream of the root: its lines name the hit region.
        let watcher = try Self.trigger(daemon, subscribe: #"{"request":"subscribe","touches":["screen"]}"#)
        #expect(try app.lines(until: { $0["state"] as? String == "began" }).last?["gesture"] as? String == "drag")
        let hits = try watcher.lines(until: { $0["type"] as? String == "touch" })
        // Others see the app's region qualified by its client number ("N:pad").
        let hit = hits.last?["region"] as? String ?? ""
        #expect(hit.hasSuffix(":pad") && hit != "pad", "\(hit)")
        #expect(hits.last?["responder"] as? String == "screen")
        _ = shutdown(app.fd, Int32(SHUT_RDWR))
        #expect(waitUntil(timeout: 10) { daemon.log.contains("client's regions detached") }, "\(daemon.log)")
        #expect(daemon.log.contains("cancelled=drag"), "\(daemon.log)")
        // The region is gone for everyone.
        let chain = try watcher.request(#"{"request":"hit-test","x":10,"y":10}"#)["chain"] as? [String]
        #expect(chain == ["screen"])
        let status = try watcher.request(#"{"request":"status"}"#)
        #expect(status["attachedRegions"] as? Int == 0 && status["attachedGestures"] as? Int == 0, "\(status)")
    }

    @Test func anInvalidAttachNamesThePathInTheRequestAndChangesNothing() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        let broken = #"{"request":"attach","parent":"screen","regions":{"id":"kb","frame":[0,0,"100%","100%"],"#
            + #""children":[{"id":"k1","frame":[0,0,10,10]},{"id":"k2","frame":[10,0]}]},"#
            + #""gestures":[{"id":"press","kind":"tap","region":"k1"}]}"#
        let reply = try app.request(broken)
        #expect(reply["type"] as? String == "error")
        let message = reply["message"] as? String ?? ""
        #expect(message.hasPrefix("regions.children[1].frame: "), "\(message)")
        #expect(message.contains("got 2"), "\(message)")
        #expect(message.contains("nothing was attached"))
        // Nothing of it exists: the same ids attach cleanly once the frame is right.
        let chain = try app.request(#"{"request":"hit-test","x":5,"y":5}"#)["chain"] as? [String]
        #expect(chain == ["screen"])
        let fixed = broken.replacingOccurrences(of: #""frame":[10,0]"#, with: #""frame":[10,0,10,10]"#)
        #expect(isOK(try app.request(fixed)))
        #expect(try app.request(#"{"request":"hit-test","x":5,"y":5}"#)["chain"] as? [String] == ["k1", "kb", "screen"])
        // Errors name paths for gestures too, and an unknown parent is refused.
        let badGesture = try app.request(attachLine(region: "other", frame: "[0,0,1,1]",
                                                    gestures: #"[{"id":"g","kind":"tap","movement":"5kg"}]"#))
        #expect((badGesture["message"] as? String ?? "").hasPrefix("gestures[0].movement: "), "\(badGesture)")
        let orphan = try app.request(attachLine(region: "x", frame: "[0,0,1,1]", gestures: "[]", parent: "nowhere"))
        #expect((orphan["message"] as? String ?? "").hasPrefix("parent: no region 'nowhere'"), "\(orphan)")
    }

    @Test func aTouchOnARegionWithoutConsumerGoesUpTheResponderChain() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try """
            version: 1
            regions:
              id: screen
              children:
                - { id: panel, frame: [0, 0, "100%", "100%"], publish-touches: true }
            gestures: []
            """.write(toFile: config, atomically: true, encoding: .utf8)
        // The attach, then the panel watcher's subscribe starts the recording.
        let daemon = try DaemonProcess(extraArguments: ["--config", config, "--inject", AppFixtures.tap,
                                                        "--inject-after", "2"])
        let app = try daemon.connect()
        // A key inside the panel, with a gesture but no touch consumer of its own.
        #expect(isOK(try app.request(attachLine(region: "key", frame: AppFixtures.aroundTap,
                                                gestures: #"[{"id":"press","kind":"tap","cancels-touches":false}]"#,
                                                parent: "panel"))))
        let panelWatcher = try Self.trigger(daemon, subscribe: #"{"request":"subscribe","touches":["panel"]}"#)
        let touches = try panelWatcher.lines(until: { $0["phase"] as? String == "ended" })
            .filter { $0["type"] as? String == "touch" }
        #expect(touches.map { $0["phase"] as? String } == ["began", "ended"])
        #expect(touches.allSatisfy { ($0["region"] as? String ?? "").hasSuffix(":key") && $0["responder"] as? String == "panel" },
                "\(touches)")
        #expect(gestureLines(try app.lines(until: { $0["type"] as? String == "gesture" })).first?["gesture"] as? String
                == "press")
    }
}
