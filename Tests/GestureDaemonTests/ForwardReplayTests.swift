import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureRecording
import Testing

/// `gestured replay --forward` on real recordings: what the desktop gets through the clone.
@Suite struct ForwardReplayTests {
    static let corpus = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/"

    static func recording(_ folder: String, _ device: String, _ gesture: String) throws -> [Recording] {
        try Replay.load(paths: [corpus + "\(folder)/\(device).\(gesture).events"],
                        descriptionPath: corpus + "\(folder)/\(device).desc")
    }

    static func forwarded(_ recordings: [Recording], config: String?, explains: Bool = false) throws
        -> (outputs: [EngineOutput], clone: [RawEvent]) {
        let configuration = try config.map { try ConfigurationLoader.parse($0, file: "test.yml") }
            ?? ConfigurationLoader.loadDefault()
        let r = Replay.forwarded(recordings, options: ReplayOptions(configuration: configuration, explains: explains))
        return (r.outputs, r.clones[0].events)
    }

    static func verdicts(_ outputs: [EngineOutput]) -> [TouchForwarding] {
        outputs.compactMap { if case .forwarding(let f) = $0 { f } else { nil } }
    }

    /// The multitouch slot events (slot, tracking id, position…) in order.
    static func slotEvents(_ events: [RawEvent]) -> [RawEvent] {
        events.filter { $0.type == .abs && $0.code.rawValue >= EventCode.absMTSlot.rawValue }
    }

    static let edgeSwipeConfig = """
        gestures:
          - id: edge-top
            kind: edge-pan
            edges: [top]
            edge-zone: 20mm
        bindings:
          - gesture: edge-top
            command: "true"
        """

    @Test func aOneFingerDragWithNoGestureBoundForwardsExactlyItsTouches() throws {
        let recordings = try Self.recording("touchscreens", "Atmel maXTouch Touchscreen", "1-finger-drag-up-down")
        let r = try Self.forwarded(recordings, config: nil)
        #expect(Self.verdicts(r.outputs).isEmpty)
        #expect(r.clone == recordings[0].events)
    }

    @Test func aBoundEdgeSwipeForwardsNoneOfItsTouches() throws {
        // A drag down from 13.6 mm below the top edge.
        let recordings = try Self.recording("touchscreens", "EP0430M09", "1-finger-drag-up-down")
        let r = try Self.forwarded(recordings, config: Self.edgeSwipeConfig, explains: true)
        #expect(r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "edge-top" && g.state == .began } else { false } })
        #expect(Self.verdicts(r.outputs).map(\.verdict) == [.hold, .withdraw])
        // No slot of the swipe's touch, no BTN_TOUCH: the desktop saw nothing.
        #expect(!r.clone.contains { $0.code == .absMTTrackingID })
        #expect(!r.clone.contains { $0.type == .key && $0.code == .btnTouch && $0.value == 1 })
    }

    /// Only a three-finger swipe, bound (so it claims its touches and holds the finger that makes three).
    static let boundThreeFingerSwipe = """
        gestures:
          - id: swipe-3
            kind: swipe
            fingers: 3
            directions: [left, right]
        bindings:
          - gesture: swipe-3
            command: "true"
        """

    @Test func aTwoFingerTouchpadScrollWhereOnlyAThreeFingerSwipeIsBoundForwardsUnchanged() throws {
        let recordings = try Self.recording("touchpads", "SynPS2 Synaptics TouchPad.hp8470p", "two-finger-scroll-vertical")
        let r = try Self.forwarded(recordings, config: Self.boundThreeFingerSwipe)
        #expect(Self.verdicts(r.outputs).isEmpty)
        #expect(r.clone == recordings[0].events)
    }

    @Test func aBoundDoubleTapHeldBackThenFailedForwardsTheTouchLateCompleteAndInOrder() throws {
        let recordings = try Self.recording("touchpads", "AlpsPS2 ALPS GlidePoint", "single-tap")
        let r = try Self.forwarded(recordings, config: """
            gestures:
              - id: double
                kind: tap
                taps: 2
                delays-touches-began: true
            bindings:
              - gesture: double
                command: "true"
            """)
        let verdicts = Self.verdicts(r.outputs)
        #expect(verdicts.map(\.verdict) == [.hold, .release])
        let source = Self.slotEvents(recordings[0].events).filter { $0.code != .absMTSlot }
        let clone = Self.slotEvents(r.clone).filter { $0.code != .absMTSlot }
        // Complete and in order: every slot event of the tap, none lost, none reordered…
        #expect(!source.isEmpty)
        #expect(clone.map(\.code) == source.map(\.code))
        #expect(clone.map(\.value) == source.map(\.value))
        // …and late: nothing before the double tap failed (the tap moved too far, 61 ms in).
        let released = try #require(verdicts.last?.time)
        #expect(released > recordings[0].events.first!.time)
        #expect(r.clone.first?.time == released)
    }

    /// The real three-finger swipes on two Chromebook touchpads (`Tests/Fixtures/chromiumos-autotest`),
    /// and a scripted one on another real touchpad's description (`scriptedThreeFingerSwipe`).
    static let realSwipes = ["cros-cyan.3fg-swipe-left.evemu", "cros-cyan.3fg-swipe-right.evemu",
                             "cros-gandof.3fg-swipe-left.evemu", "cros-gandof.3fg-swipe-right.evemu", "scripted"]

    static func threeFingerSwipeRecording(_ name: String) throws -> [Recording] {
        if name == "scripted" { return try [scriptedThreeFingerSwipe()] }
        return try RecordingLoader.load(path: Paths.packageRoot + "/Tests/Fixtures/chromiumos-autotest/" + name)
    }

    @Test(arguments: realSwipes)
    func aBoundThreeFingerTouchpadSwipeForwardsNoThreeFingerContact(file: String) throws {
        let recordings = try Self.threeFingerSwipeRecording(file)
        let r = try Self.forwarded(recordings, config: Self.boundThreeFingerSwipe)
        #expect(r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "swipe-3" } else { false } })
        var slot = 0
        var down: Set<Int> = []
        var most = 0
        var tool = false
        for e in r.clone {
            if e.code == .absMTSlot { slot = Int(e.value) }
            if e.code == .absMTTrackingID { if e.value >= 0 { down.insert(slot) } else { down.remove(slot) } }
            if e.type == .key && (e.code == .btnToolTripleTap || e.code == .btnToolQuadTap) && e.value == 1 { tool = true }
            if e.isSynReport { most = max(most, down.count) }
        }
        #expect(most < 3)
        #expect(!tool)
        #expect(down.isEmpty)
    }

    /// Three fingers landing 20 ms apart on a Logitech touchpad, then 40 mm to the right.
    static func scriptedThreeFingerSwipe() throws -> Recording {
        let desc = try String(contentsOfFile: corpus + "touchpads/Logitech Wireless Touchpad.desc", encoding: .utf8)
        var lines: [String] = []
        var t = 1_000_000
        func e(_ type: Int, _ code: Int, _ value: Int) {
            lines.append(String(format: "E: %d.%06d %04x %04x %d", t / 1_000_000, t % 1_000_000, type, code, value))
        }
        let tools = [0x145, 0x14d, 0x14e]
        for f in 0..<3 {
            e(3, 0x2f, f); e(3, 0x39, 100 + f); e(3, 0x35, 1500 + f * 600); e(3, 0x36, 2000)
            if f == 0 { e(1, 0x14a, 1) } else { e(1, tools[f - 1], 0) }
            e(1, tools[f], 1)
            e(0, 0, 0)
            t += 20_000
        }
        for k in 1...20 {
            for f in 0..<3 { e(3, 0x2f, f); e(3, 0x35, 1500 + f * 600 + k * 80) }
            e(0, 0, 0)
            t += 10_000
        }
        for f in 0..<3 { e(3, 0x2f, f); e(3, 0x39, -1) }
        e(1, 0x14a, 0); e(1, 0x14e, 0); e(0, 0, 0)
        return try RecordingLoader.parseEvemu(desc + "\n" + lines.joined(separator: "\n") + "\n", path: "scripted three-finger swipe")
    }

    @Test func theForwardedFileReadsBackInGesturedReplay() throws {
        let dir = TempDir()
        let config = dir.file("edge.yml")
        try Self.edgeSwipeConfig.write(toFile: config, atomically: true, encoding: .utf8)
        let events = Self.corpus + "touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events"
        let desc = Self.corpus + "touchscreens/N-Trig MultiTouch.desc"
        let out = dir.file("desktop.evemu")
        let run = try runBinary("gestured", ["replay", "--config", config, "--desc", desc, "--forward", out,
                                             "--format", "json", events])
        #expect(run.status == 0, "\(run.stderr)")
        let back = try RecordingLoader.load(path: out)
        #expect(back.count == 1 && back[0].description.name == "N-Trig MultiTouch")
        let original = try Replay.load(paths: [events], descriptionPath: desc)
        // A protocol-A device is forwarded as it is (docs/forwarding.md): the recording as it was.
        #expect(back[0].events == original[0].events)
        let again = try runBinary("gestured", ["replay", "--format", "json", out])
        #expect(again.status == 0, "\(again.stderr)")
        // Deterministic: a second run writes the same file.
        let out2 = dir.file("again.evemu")
        _ = try runBinary("gestured", ["replay", "--config", config, "--desc", desc, "--forward", out2, events])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == String(contentsOfFile: out2, encoding: .utf8))
    }
}
