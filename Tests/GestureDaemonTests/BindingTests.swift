import Foundation
import Logging
import Testing
import GestureCore
import GestureConfig
@testable import GestureDaemon
import GesturePosix
import GestureProtocol

/// The binding executor, driven directly (no daemon): waits are bounded, results are asserted.
@Suite(.serialized) struct BindingTests {
    static let logger = Logger(label: "test.bindings")

    static func job(_ command: String, index: Int = 0, timeout: Double = 10_000) -> BindingExecutor.Job {
        BindingExecutor.Job(id: .init(generation: 1, index: index), gesture: "g", command: command, timeout: timeout)
    }

    /// Reaps until nothing runs or is queued, within `timeout` seconds.
    func drain(_ executor: BindingExecutor, timeout: Double = 10) -> Bool {
        waitUntil(timeout: timeout) {
            executor.enforceTimeouts()
            executor.reap()
            return executor.runningCount == 0 && executor.queuedCount == 0
        }
    }

    @Test func gestureValuesNeverBecomeShellCode() throws {
        let dir = TempDir()
        let marker = dir.file("pwned")
        let out = dir.file("out")
        let hostile = "$(touch \(marker)); rm -rf \(dir.path) `touch \(marker)` \"'\n&& touch \(marker)"
        let event = GestureEvent(gesture: hostile, kind: .swipe, state: .recognized, time: Timestamp(seconds: 1.5),
                                 device: "; touch \(marker)", region: "|touch \(marker)", fingers: 3,
                                 direction: .left, translation: Point(x: -120, y: 4))
        let command = #"printf '%s\n' "$GESTURE_ID" "$GESTURE_DEVICE" "$GESTURE_REGION" "$GESTURE_KIND" "$GESTURE_STATE" "$GESTURE_FINGERS" "$GESTURE_DIRECTION" "$GESTURE_TRANSLATION_X" > "# + "\"" + out + "\""
        let executor = BindingExecutor(concurrency: 2, logger: Self.logger)
        let dispatcher = BindingDispatcher(executor: executor, keyboard: KeyboardOutput(uinputPath: "/nonexistent", logger: Self.logger),
                                           logger: Self.logger)
        dispatcher.configure(Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []),
                                           bindings: [Binding(gesture: hostile, command: command)]))
        dispatcher.handle(event)
        #expect(executor.runningCount == 1)
        #expect(drain(executor))
        let lines = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\n")
        #expect(Array(lines.prefix(2)) == hostile.components(separatedBy: "\n"))
        #expect(lines.contains("; touch \(marker)"))
        #expect(lines.contains("|touch \(marker)"))
        #expect(Array(lines.suffix(6)) == ["swipe", "recognized", "3", "left", "-120", ""])
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(FileManager.default.fileExists(atPath: dir.path))
        #expect(executor.completions.last?.exitStatus == 0)
    }

    @Test func onlyMatchingGesturesAndStatesFire() {
        let bindings = [Binding(gesture: "pan", command: "true"),
                        Binding(gesture: "pan", states: [.began, .changed], command: "true")]
        func event(_ state: GestureState, _ id: String = "pan") -> GestureEvent {
            GestureEvent(gesture: id, kind: .pan, state: state, time: .zero, device: "d", region: "r", fingers: 2)
        }
        #expect(BindingDispatcher.matching(bindings, event(.began)).count == 1)
        #expect(BindingDispatcher.matching(bindings, event(.ended)).count == 1)
        #expect(BindingDispatcher.matching(bindings, event(.ended)).first?.states.isEmpty == true)
        #expect(BindingDispatcher.matching(bindings, event(.cancelled)).isEmpty)
        #expect(BindingDispatcher.matching(bindings, event(.recognized, "tap")).isEmpty)
    }

    @Test func aCommandPastItsTimeoutIsKilledWithItsProcessGroup() throws {
        let dir = TempDir()
        let pidFile = dir.file("child")
        let executor = BindingExecutor(concurrency: 1, logger: Self.logger)
        executor.submit(Self.job("sleep 30 & echo $! > \(pidFile); wait", timeout: 200))
        let start = Date()
        #expect(drain(executor, timeout: 10))
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(executor.completions.last?.timedOut == true)
        #expect(executor.completions.last?.exitStatus != 0)
        let child = Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))!
        // The background grandchild got the signal too: gone, or a zombie waiting for init.
        #expect(waitUntil(timeout: 5) {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) else { return true }
            return stat.contains(") Z ")
        })
    }

    @Test func theConcurrencyLimitQueuesTheRest() throws {
        let dir = TempDir()
        let executor = BindingExecutor(concurrency: 2, logger: Self.logger)
        // Six bindings (one run each): two run, four wait.
        for i in 0..<6 {
            executor.submit(Self.job("sleep 0.1; echo done > \(dir.file("\(i)"))", index: i))
        }
        #expect(executor.runningCount == 2)
        #expect(executor.queuedCount == 4)
        var most = 0
        #expect(waitUntil(timeout: 15) {
            executor.reap()
            most = max(most, executor.runningCount)
            return executor.runningCount == 0 && executor.queuedCount == 0
        })
        #expect(most <= 2)
        for i in 0..<6 { #expect(FileManager.default.fileExists(atPath: dir.file("\(i)"))) }
        #expect(executor.completions.count == 6)
    }

    @Test func commandsInheritNoDescriptorBeyondStderr() throws {
        let dir = TempDir()
        // A descriptor without O_CLOEXEC, as a parent (a shell, systemd's sockets) may leave the daemon.
        let fd = open(dir.path, O_RDONLY)
        #expect(fd > 2)
        defer { close(fd) }
        let executor = BindingExecutor(concurrency: 1, logger: Self.logger)
        executor.submit(Self.job("if [ -e /proc/$$/fd/\(fd) ]; then echo inherited; else echo closed; fi > \(dir.file("out"))"))
        #expect(drain(executor))
        #expect(try String(contentsOfFile: dir.file("out"), encoding: .utf8) == "closed\n")
    }

    @Test func exitStatusIsRecorded() {
        let executor = BindingExecutor(concurrency: 1, logger: Self.logger)
        executor.submit(Self.job("exit 7"))
        #expect(drain(executor))
        #expect(executor.completions.last?.exitStatus == 7)
        #expect(executor.completions.last?.timedOut == false)
    }

    @Test func environmentCarriesEveryValue() {
        let e = GestureEvent(gesture: "pinch", kind: .pinch, state: .changed, time: .zero, device: "pad", region: "screen",
                             fingers: 2, taps: 2, location: Point(x: 1, y: 2), scale: 1.5, rotation: -0.25)
        let env = BindingDispatcher.environment(for: e)
        #expect(env["GESTURE_ID"] == "pinch")
        #expect(env["GESTURE_KIND"] == "pinch")
        #expect(env["GESTURE_STATE"] == "changed")
        #expect(env["GESTURE_FINGERS"] == "2")
        #expect(env["GESTURE_SCALE"] == "1.5")
        #expect(env["GESTURE_ROTATION"] == "-0.25")
        #expect(env["GESTURE_TAPS"] == "2")
        #expect(env["GESTURE_REGION"] == "screen")
        #expect(env["GESTURE_DEVICE"] == "pad")
        #expect(env["GESTURE_DIRECTION"] == nil)
    }
}
