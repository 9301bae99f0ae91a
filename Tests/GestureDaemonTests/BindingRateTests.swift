import Foundation
import Logging
import Testing
import GesturePosix
import GestureCore
import GestureConfig
import GestureDevices
@testable import GestureDaemon

/// Pile-up control: one run per binding at a time, later triggers coalesced into one pending run
/// (GESTURE_STEPS), and the cooldown. Commands wait for a file the test creates, so "still running"
/// is a fact, not a timing.
@Suite(.serialized) struct BindingRateTests {
    static let logger = Logger(label: "test.rates")

    static func job(_ command: String, index: Int = 0, step: Int? = nil) -> BindingExecutor.Job {
        BindingExecutor.Job(id: .init(generation: 1, index: index), gesture: "g", command: command, step: step)
    }

    /// Runs until `go` exists, then appends "$GESTURE_STEP $GESTURE_STEPS" to `out`.
    static func gatedCommand(_ dir: TempDir) -> String {
        "while [ ! -e '\(dir.file("go"))' ]; do sleep 0.01; done; echo \"${GESTURE_STEP:-none} $GESTURE_STEPS\" >> '\(dir.file("out"))'"
    }

    func drain(_ executor: BindingExecutor) -> Bool {
        waitUntil(timeout: 15) {
            executor.reap()
            return executor.runningCount == 0 && executor.queuedCount == 0
        }
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func triggersWhileTheCommandRunsBecomeOnePendingRunThatKnowsHowMany() throws {
        let dir = TempDir()
        let executor = BindingExecutor(concurrency: 4, logger: Self.logger)
        for _ in 0..<5 { executor.submit(Self.job(Self.gatedCommand(dir))) }
        #expect(executor.runningCount == 1)
        #expect(executor.queuedCount == 1)
        #expect(executor.coalescedCount == 4)
        _ = FileManager.default.createFile(atPath: dir.file("go"), contents: nil)
        #expect(drain(executor))
        #expect(lines(dir.file("out")) == ["none 1", "none 4"])
        #expect(executor.completions.map(\.steps) == [1, 4])
    }

    @Test func coalescedStepsAddUpWithTheirSigns() throws {
        let dir = TempDir()
        let executor = BindingExecutor(concurrency: 4, logger: Self.logger)
        for step in [-1, -1, -1, 1, -1] { executor.submit(Self.job(Self.gatedCommand(dir), step: step)) }
        _ = FileManager.default.createFile(atPath: dir.file("go"), contents: nil)
        #expect(drain(executor))
        // The first step ran at once; the other four net to -2.
        #expect(lines(dir.file("out")) == ["-1 1", "-1 2"])
    }

    @Test func stepsThatCancelOutRunNothing() throws {
        let dir = TempDir()
        let executor = BindingExecutor(concurrency: 4, logger: Self.logger)
        for step in [1, 1, -1] { executor.submit(Self.job(Self.gatedCommand(dir), step: step)) }
        #expect(executor.queuedCount == 1)
        _ = FileManager.default.createFile(atPath: dir.file("go"), contents: nil)
        #expect(drain(executor))
        #expect(lines(dir.file("out")) == ["+1 1"])
    }

    @Test func aBusyBindingDoesNotHoldBackAnother() throws {
        let dir = TempDir()
        let executor = BindingExecutor(concurrency: 2, logger: Self.logger)
        // Binding 0 hangs (until `go`) and is triggered again and again; binding 1 keeps running.
        var most = 0
        for i in 0..<5 {
            executor.submit(Self.job(Self.gatedCommand(dir), index: 0))
            executor.submit(Self.job("echo \(i) >> '\(dir.file("other"))'", index: 1))
            #expect(waitUntil(timeout: 10) {
                executor.reap()
                most = max(most, executor.runningCount)
                return lines(dir.file("other")).count == i + 1
            })
        }
        #expect(most <= 2)
        #expect(waitUntil(timeout: 10) {
            executor.reap()
            return executor.runningCount == 1
        })
        _ = FileManager.default.createFile(atPath: dir.file("go"), contents: nil)
        #expect(drain(executor))
        #expect(lines(dir.file("out")) == ["none 1", "none 4"])
    }
}

/// The dispatcher: cooldown, keys per step, the keyboard's key set on reload.
@Suite struct BindingDispatchTests {
    static let logger = Logger(label: "test.dispatch")

    final class RecordingSink: KeySink {
        var devnode: String? { "/dev/input/test" }
        var strokes: [KeyStroke] = []
        func send(_ strokes: [KeyStroke]) throws(SystemCallError) { self.strokes += strokes }
    }

    /// A dispatcher whose keyboard records; `created` counts keyboards made.
    final class Harness {
        let sink = RecordingSink()
        var created: [Set<UInt16>] = []
        let executor = BindingExecutor(concurrency: 4, logger: BindingDispatchTests.logger)
        var dispatcher: BindingDispatcher!
        init(_ bindings: [Binding]) {
            let keyboard = KeyboardOutput(uinputPath: "/test/uinput", logger: BindingDispatchTests.logger) {
                [unowned self] keys, _ throws(SystemCallError) in
                self.created.append(keys)
                return self.sink
            }
            dispatcher = BindingDispatcher(executor: executor, keyboard: keyboard, logger: BindingDispatchTests.logger)
            configure(bindings)
        }
        func configure(_ bindings: [Binding]) {
            dispatcher.configure(Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []),
                                               bindings: bindings))
        }
        var pressed: [(String, Bool)] { sink.strokes.map { (KeyNames.name(of: $0.code), $0.pressed) } }
    }

    static func code(_ name: String) -> UInt16 { KeyNames.code(for: name)! }
    static func combo(_ names: String...) -> KeyCombo { KeyCombo(names.map(code)) }

    static func event(_ gesture: String, _ state: GestureState, y: Double = 0) -> GestureEvent {
        GestureEvent(gesture: gesture, kind: state == .recognized ? .tap : .pan, state: state, time: .zero, device: "d",
                     region: "screen", fingers: 2, taps: state == .recognized ? 2 : nil,
                     translation: state == .recognized ? nil : Point(x: 0, y: y))
    }

    @Test func combinationsArePressedInOrderAndReleasedInReverse() {
        let harness = Harness([Binding(gesture: "tap", keys: [Self.combo("leftctrl", "leftalt", "right"), Self.combo("enter")])])
        harness.dispatcher.handle(Self.event("tap", .recognized))
        #expect(harness.pressed.map { "\($0.0)\($0.1 ? "+" : "-")" }
            == ["leftctrl+", "leftalt+", "right+", "right-", "leftalt-", "leftctrl-", "enter+", "enter-"])
        #expect(harness.created == [Set(["leftctrl", "leftalt", "right", "enter"].map(Self.code))])
    }

    @Test func aBindingWithKeysAndACommandDoesBoth() {
        let dir = TempDir()
        let harness = Harness([Binding(gesture: "tap", command: "echo \"$GESTURE_ID\" > '\(dir.file("ran"))'",
                                       keys: [Self.combo("enter")])])
        harness.dispatcher.handle(Self.event("tap", .recognized))
        #expect(harness.pressed.map(\.0) == ["enter", "enter"])
        #expect(waitUntil(timeout: 10) {
            harness.executor.reap()
            return harness.executor.completions.count == 1
        })
        #expect((try? String(contentsOfFile: dir.file("ran"), encoding: .utf8)) == "tap\n")
    }

    @Test func steppedKeysFollowTheStepsDirection() {
        let harness = Harness([Binding(gesture: "scroll", keysIncrease: [Self.combo("volumeup")],
                                       keysDecrease: [Self.combo("volumedown")], every: .distance(mm: 8, axis: nil))])
        for (state, y) in [(GestureState.began, -3.0), (.changed, -17), (.changed, -10), (.changed, 2), (.ended, 2)] {
            harness.dispatcher.handle(Self.event("scroll", state, y: y))
        }
        // Down two steps (-8, -16); -10 is less than a step back; then up past -8 and 0.
        #expect(harness.pressed.filter(\.1).map(\.0) == ["volumedown", "volumedown", "volumeup", "volumeup"])
        #expect(harness.pressed.count == 8)
    }

    @Test func aCancelledGestureStepsNoMore() {
        let harness = Harness([Binding(gesture: "scroll", keys: [Self.combo("volumeup")], every: .distance(mm: 8, axis: .y))])
        harness.dispatcher.handle(Self.event("scroll", .began, y: 1))
        harness.dispatcher.handle(Self.event("scroll", .cancelled, y: 40))
        #expect(harness.sink.strokes.isEmpty)
        // The next gesture starts from its own landing point.
        harness.dispatcher.handle(Self.event("scroll", .began, y: 9))
        #expect(harness.pressed.filter(\.1).count == 1)
    }

    @Test func theCooldownDropsTriggersThatComeTooSoon() {
        let harness = Harness([Binding(gesture: "tap", keys: [Self.combo("enter")], cooldown: 300)])
        for ms: Int64 in [0, 100, 299, 300, 450, 650] {
            harness.dispatcher.handle(Self.event("tap", .recognized), now: 1_000_000 + ms * 1000)
        }
        // Runs at 0, 300 and 650 ms.
        #expect(harness.pressed.filter(\.1).count == 3)
        #expect(harness.dispatcher.cooledDownCount == 3)
    }

    @Test func theKeyboardIsRecreatedOnlyWhenTheKeySetChanges() {
        let harness = Harness([Binding(gesture: "tap", keys: [Self.combo("enter")])])
        harness.configure([Binding(gesture: "tap", keys: [Self.combo("enter")], cooldown: 100)])
        #expect(harness.created.count == 1)
        harness.configure([Binding(gesture: "tap", keys: [Self.combo("enter"), Self.combo("f5")])])
        #expect(harness.created == [[Self.code("enter")], [Self.code("enter"), Self.code("f5")]])
        #expect(harness.dispatcher.keyboard.state == .ready(devnode: "/dev/input/test"))
        harness.configure([Binding(gesture: "tap", command: "true")])
        #expect(harness.dispatcher.keyboard.state == .none)
        #expect(harness.created.count == 2)
    }

    @Test func anUnavailableKeyboardSaysWhyAndDropsKeys() {
        let keyboard = KeyboardOutput(uinputPath: "/nonexistent/uinput", logger: Self.logger)
        keyboard.configure(keys: [Self.code("enter")])
        #expect(keyboard.state == .unavailable(SystemCallError("open", code: ENOENT, subject: "/nonexistent/uinput")))
        keyboard.send([Self.combo("enter")], gesture: "tap")
        #expect(keyboard.droppedCount == 1)
        let status = json(keyboard.statusJSON)
        #expect(status["state"] as? String == "unavailable")
        #expect(status["errno"] as? Int == Int(ENOENT))
        #expect((status["fix"] as? String)?.contains("modprobe uinput") == true)
        #expect(status["keys"] as? [String] == ["enter"])
        let denied = KeyboardOutput.fix(for: SystemCallError("open", code: EACCES, subject: "/dev/uinput"), path: "/dev/uinput")
        #expect(denied.contains("udev/70-gestured.rules") && denied.contains("DeviceAllow=/dev/uinput rw"))
    }
}
