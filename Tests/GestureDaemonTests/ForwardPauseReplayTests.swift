import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureRecording
import GestureReport
import Testing

/// Forwarding as the desktop feels it on a touchpad (docs/forwarding.md, "When the finger count is
/// reached"): when a third finger lands and a bound three-finger swipe may still take the fingers,
/// the two already on the clone stop moving there; lifted when the swipe is recognized, moving again
/// (from where they stopped) when it fails.
@Suite struct ForwardPauseReplayTests {
    static let swipes = ForwardReplayTests.realSwipes.filter { $0 != "scripted" }
    static let restingThird = Paths.packageRoot
        + "/Tests/Fixtures/derived/cros-gandof.3fg-swipe-right.third-finger-resting.evemu"

    /// The clone's contacts as a reader of it sees them, frame by frame.
    struct CloneReader {
        var slot = 0
        /// Per slot: tracking id, position, and the frame count it has been down.
        var ids: [Int: Int32] = [:]
        var positions: [Int32: (x: Int32, y: Int32)] = [:]
        var most = 0
        var touchKey = false
        var tripleTool = false
        /// Time of the last position change of a contact that was down before its frame.
        var lastMotion: Timestamp?
        /// Per tracking id, every position in order (one per frame in which it changed).
        var paths: [Int32: [(time: Timestamp, x: Int32, y: Int32)]] = [:]

        init(_ events: [RawEvent]) {
            var landed: Set<Int32> = []
            var moved: Set<Int32> = []
            for e in events {
                switch (e.type, e.code) {
                case (.abs, .absMTSlot): slot = Int(e.value)
                case (.abs, .absMTTrackingID):
                    if e.value >= 0 { ids[slot] = e.value; landed.insert(e.value) } else { ids[slot] = nil }
                case (.abs, .absMTPositionX), (.abs, .absMTPositionY):
                    guard let id = ids[slot] else { continue }
                    var p = positions[id] ?? (0, 0)
                    if e.code == .absMTPositionX { p.x = e.value } else { p.y = e.value }
                    positions[id] = p
                    moved.insert(id)
                case (.key, .btnTouch): touchKey = e.value != 0
                case (.key, .btnToolTripleTap), (.key, .btnToolQuadTap): if e.value != 0 { tripleTool = true }
                case (.syn, .synReport):
                    most = max(most, ids.count)
                    for id in moved {
                        guard let p = positions[id] else { continue }
                        if !landed.contains(id) { lastMotion = e.time }
                        paths[id, default: []].append((e.time, p.x, p.y))
                    }
                    landed = []
                    moved = []
                default: break
                }
            }
        }
    }

    /// The time of the source's first frame with at least three contacts down.
    static func firstThreeFingerFrame(_ events: [RawEvent]) -> Timestamp? {
        var slot = 0
        var down: Set<Int> = []
        for e in events {
            if e.code == .absMTSlot && e.type == .abs { slot = Int(e.value) }
            if e.code == .absMTTrackingID && e.type == .abs { if e.value >= 0 { down.insert(slot) } else { down.remove(slot) } }
            if e.isSynReport && down.count >= 3 { return e.time }
        }
        return nil
    }

    @Test(arguments: swipes)
    func theClonesFingersStopWithinTwoFramesOfTheThirdFingerAndAllEnd(file: String) throws {
        let recordings = try ForwardReplayTests.threeFingerSwipeRecording(file)
        let r = try ForwardReplayTests.forwarded(recordings, config: ForwardReplayTests.boundThreeFingerSwipe)
        #expect(r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "swipe-3" && g.state == .began } else { false } })
        let third = try #require(Self.firstThreeFingerFrame(recordings[0].events))
        let clone = CloneReader(r.clone)
        // The two fingers on the clone moved last at most 25 ms (two frames) after the third landed
        // (or never moved: the third landed before they did).
        let stoppedAfter = (clone.lastMotion ?? third).microseconds - third.microseconds
        #expect(stoppedAfter <= 25_000, "\(file): last motion \(stoppedAfter / 1000) ms after the third finger")
        #expect(clone.most < 3)
        #expect(!clone.tripleTool)
        // Every touch on the clone ends.
        #expect(clone.ids.isEmpty)
        #expect(!clone.touchKey)
        #expect(ForwardReplayTests.verdicts(r.outputs).contains { $0.verdict == .pause })
    }

    /// A three-finger swipe up or down, bound.
    static let boundVerticalSwipe = ForwardReplayTests.boundThreeFingerSwipe
        .replacingOccurrences(of: "directions: [left, right]", with: "directions: [up, down]")

    @Test func aResumedScrollMovesOnFromWhereItStoppedWithoutAJump() throws {
        let recordings = try RecordingLoader.load(path: Self.restingThird)
        let r = try ForwardReplayTests.forwarded(recordings, config: Self.boundVerticalSwipe)
        // Two fingers scroll to the right, the third rests: the bound up-or-down swipe fails.
        #expect(!r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "swipe-3" } else { false } })
        let verdicts = ForwardReplayTests.verdicts(r.outputs)
        let paused = verdicts.filter { $0.verdict == .pause }
        let resumed = verdicts.filter { $0.verdict == .resume }
        #expect(paused.count == 2)
        #expect(Set(resumed.map(\.touch)) == Set(paused.map(\.touch)))
        let resumedAt = try #require(resumed.first?.time)
        let pausedAt = try #require(paused.first?.time)
        let clone = CloneReader(r.clone)
        // It scrolls on after the pause…
        #expect((clone.lastMotion ?? .zero) > resumedAt)
        // …without a jump: no step on the clone longer than the finger's longest step on the source.
        let source = CloneReader(recordings[0].events)
        let longest = source.paths.values.map(Self.longestStep).max() ?? 0
        #expect(longest > 0)
        for (id, path) in clone.paths {
            #expect(Self.longestStep(path) <= longest, "contact \(id) jumps on the clone")
            // Still while paused.
            let during = path.filter { $0.time > pausedAt && $0.time < resumedAt }
            #expect(during.isEmpty, "contact \(id) moved on the clone while paused")
        }
        // The pause lasted long enough for a jump to show: the fingers moved more meanwhile than a step.
        let pausedMotion = source.paths.values.map { path -> Int32 in
            let inside = path.filter { $0.time >= pausedAt && $0.time <= resumedAt }
            guard let a = inside.first, let b = inside.last else { return 0 }
            return max(abs(b.x - a.x), abs(b.y - a.y))
        }.max() ?? 0
        #expect(pausedMotion > longest)
        #expect(clone.most < 4)
        #expect(clone.ids.isEmpty)
    }

    static func longestStep(_ path: [(time: Timestamp, x: Int32, y: Int32)]) -> Int32 {
        zip(path, path.dropFirst()).map { max(abs($1.x - $0.x), abs($1.y - $0.y)) }.max() ?? 0
    }

    @Test func aFullyTakenEdgeSwipeWritesNothingToTheClone() throws {
        let recordings = try ForwardReplayTests.recording("touchscreens", "EP0430M09", "1-finger-drag-up-down")
        let r = try ForwardReplayTests.forwarded(recordings, config: ForwardReplayTests.edgeSwipeConfig)
        #expect(ForwardReplayTests.verdicts(r.outputs).map(\.verdict) == [.hold, .withdraw])
        // Not even the single-touch emulation of a touch the clone never had.
        #expect(r.clone.filter { !$0.isSynReport }.isEmpty, "\(r.clone.prefix(8))")
    }

    @Test func theTextOutputSaysAHeldTouchWasCancelledAndPrintsEachVerdictOnce() throws {
        let dir = TempDir()
        let config = dir.file("swipe.yml")
        try ForwardReplayTests.boundThreeFingerSwipe.write(toFile: config, atomically: true, encoding: .utf8)
        let file = Paths.packageRoot + "/Tests/Fixtures/chromiumos-autotest/cros-cyan.3fg-swipe-left.evemu"
        let recordings = try RecordingLoader.load(path: file)
        let r = try ForwardReplayTests.forwarded(recordings, config: ForwardReplayTests.boundThreeFingerSwipe)
        let verdicts = ForwardReplayTests.verdicts(r.outputs)
        let held = try #require(verdicts.first { $0.verdict == .hold }?.touch)
        #expect(verdicts.contains { $0.verdict == .withdraw && $0.touch == held })
        for explain in [false, true] {
            let run = try runBinary("gestured", ["replay", "--config", config, "--forward", dir.file("out.evemu"),
                                                 "--format", "text"] + (explain ? ["--explain"] : []) + [file])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(!lines.contains { $0.contains("touch \(held) lifted") || $0.contains("touches") && $0.contains("\(held) lifted") },
                    "\(run.stdout)")
            #expect(lines.contains { $0.contains("touch \(held) cancelled, never sent to the desktop") }, "\(run.stdout)")
            // Each verdict once: one line says the held touch was held, one that it was cancelled.
            #expect(lines.filter { $0.contains("touch \(held) held") }.count == 1, "\(run.stdout)")
            #expect(lines.filter { $0.contains("touch \(held) cancelled") }.count == 1, "\(run.stdout)")
        }
    }
}

/// Replay applies `devices.include` / `ignore` as the daemon does to a live device.
@Suite struct ReplayDeviceRuleTests {
    static let touchpadOnly = """
        devices:
          include: [{ kind: touchpad }]
        gestures:
          - { id: double, kind: tap, taps: 2 }
          - { id: pan-2, kind: pan, min-fingers: 2 }
        bindings:
          - { gesture: double, command: "echo double" }
          - { gesture: pan-2, command: "echo pan" }
        """
    static let screen = ForwardReplayTests.corpus + "touchscreens/EP0430M09.2-finger-scroll-down.events"
    static let screenDesc = ForwardReplayTests.corpus + "touchscreens/EP0430M09.desc"

    @Test func aTouchpadOnlyConfigRunsNoBindingOnATouchscreenRecordingAndSaysWhy() throws {
        let dir = TempDir()
        let config = dir.file("pad.yml")
        try Self.touchpadOnly.write(toFile: config, atomically: true, encoding: .utf8)
        // The same config without the device rule fires on this recording: the rule is what stops it.
        let any = dir.file("any.yml")
        try Self.touchpadOnly.replacingOccurrences(of: "include: [{ kind: touchpad }]", with: "include: []")
            .write(toFile: any, atomically: true, encoding: .utf8)
        let fires = try runBinary("gestured", ["replay", "--config", any, "--desc", Self.screenDesc, "--bindings",
                                               "--format", "text", Self.screen])
        #expect(fires.stdout.contains("echo pan"), "\(fires.stdout)")

        for extra in [["--format", "text"], ["--format", "text", "--bindings"], ["--format", "text", "--explain"],
                      ["--format", "json", "--forward", dir.file("desktop.evemu")]] {
            let run = try runBinary("gestured", ["replay", "--config", config, "--desc", Self.screenDesc] + extra + [Self.screen])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stdout.contains("pan-2") && !run.stdout.contains("echo pan"), "\(extra): \(run.stdout)")
            let why = "device 'EP0430M09' (touchscreen) not opened: no rule of devices.include matches it (a touchscreen); include: [{ kind: touchpad }]"
            #expect(run.stderr.contains(why), "\(extra): \(run.stderr)")
            // In the text output too, wrapped to the terminal's width.
            let unwrapped = run.stdout.replacingOccurrences(of: "\n   ", with: " ")
            if extra[1] == "text" { #expect(unwrapped.contains("-- " + why), "\(extra): \(run.stdout)") }
        }
        // Not taken, so the desktop gets the device as it is.
        let desktop = try RecordingLoader.load(path: dir.file("desktop.evemu"))
        let original = try Replay.load(paths: [Self.screen], descriptionPath: Self.screenDesc)
        #expect(desktop[0].events == original[0].events)
    }

    @Test func theRuleThatOpensADeviceIsNamed() throws {
        let pad = try Replay.load(paths: [ForwardReplayTests.corpus + "touchpads/AlpsPS2 ALPS GlidePoint.double-tap.events"])
        let config = try ConfigurationLoader.parse(Self.touchpadOnly, file: "test.yml")
        let decisions = Replay.decisions(pad, configuration: config)
        #expect(decisions == [.included(0)])
        #expect(Replay.decisionText(pad[0], decisions[0], configuration: config)
                == "device 'AlpsPS/2 ALPS GlidePoint' (touchpad) opened: devices.include[0] { kind: touchpad } matches it")
        #expect(Replay.outputs(pad, options: ReplayOptions(configuration: config)).contains {
            if case .gesture(let g) = $0 { g.gesture == "double" } else { false } })
        let ignoring = try ConfigurationLoader.parse("""
            devices:
              ignore: [{ name: "*ALPS*" }]
            gestures:
              - { id: double, kind: tap, taps: 2 }
            """, file: "test.yml")
        #expect(Replay.decisions(pad, configuration: ignoring) == [.ignored(0)])
        #expect(!Replay.outputs(pad, options: ReplayOptions(configuration: ignoring)).contains {
            if case .gesture = $0 { true } else { false } })
    }
}
