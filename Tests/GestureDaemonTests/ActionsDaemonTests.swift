import Foundation
import Testing
import GestureConfig
import GestureDaemon

/// Stepped bindings, pile-up control and keys through the real daemon (`gestured run --inject`,
/// no devices, a uinput path that does not exist, so no test ever types on the machine it runs on).
@Suite(.serialized) struct ActionsDaemonTests {
    static let scroll = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchscreens/EP0430M09.2-finger-scroll-down.events"
    static let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")

    /// The default config with `bindings` replaced.
    static func config(_ bindings: String, in dir: TempDir) throws -> String {
        let yaml = ConfigurationLoader.defaultYAML
        #expect(yaml.contains("\nbindings: []"))
        let path = dir.file("gestured.yaml")
        try yaml.replacingOccurrences(of: "\nbindings: []", with: "\n" + bindings).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func daemon(config: String, recording: String, dir: TempDir, whenSubscribed: Bool = false) throws -> DaemonProcess {
        try DaemonProcess(extraArguments: ["--config", config, "--inject", recording, "--uinput", dir.file("no-uinput")]
            + (whenSubscribed ? ["--inject-when-subscribed"] : []))
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The status reply.
    static func status(_ daemon: DaemonProcess) throws -> [String: Any] {
        let client = try daemon.connect()
        return json(try daemon.roundTrip(client, #"{"request":"status"}"#))
    }

    /// Waits until the injected recording is over and no binding command runs or waits.
    static func settled(_ daemon: DaemonProcess) -> Bool {
        waitUntil(timeout: 20) {
            guard daemon.log.contains("injected recording finished"), let s = try? status(daemon) else { return false }
            return s["bindingsRunning"] as? Int == 0 && s["bindingsQueued"] as? Int == 0
        }
    }

    @Test func aTwoFingerScrollFiresOncePerEightMillimetres() throws {
        // The recording moves the two fingers' centroid up by 30 mm (y 564 → 264 device units at the
        // assumed 10 units/mm; gestured replay's final translation says the same).
        let replay = try runBinary("gestured", ["replay", Self.scroll])
        let ended = replay.stdout.split(separator: "\n").map { json(String($0)) }
            .last { $0["gesture"] as? String == "two-finger-pan" && $0["state"] as? String == "ended" }
        let travel = abs(((ended?["translation"] as? [String: Any])?["y"] as? Double) ?? 0)
        #expect(travel > 29 && travel < 31, "\(replay.stdout)")
        let expected = Int(travel / 8)
        #expect(expected == 3)

        let dir = TempDir()
        let out = dir.file("steps")
        let config = try Self.config("""
            bindings:
              - gesture: two-finger-pan
                every: 8mm
                command: 'echo "$GESTURE_STEP $GESTURE_STEPS" >> \(out)'
            """, in: dir)
        let daemon = try Self.daemon(config: config, recording: Self.scroll, dir: dir)
        #expect(Self.settled(daemon), "log:\n\(daemon.log)")
        // The fingers move up (y decreases): each step is -1, one run each (the steps are ~150 ms
        // apart; a run takes milliseconds, so none is coalesced: GESTURE_STEPS is 1).
        #expect(Self.lines(out) == Array(repeating: "-1 1", count: expected), "log:\n\(daemon.log)")
    }

    @Test func stepsAreMillimetresOnAPixelSurfaceToo() throws {
        // The same scroll on a surface of 1280 × 768 px (10 px per mm of this panel): translations
        // arrive in pixels, steps still every 8 mm.
        let dir = TempDir()
        let out = dir.file("steps")
        let config = try Self.config("""
            bindings:
              - gesture: two-finger-pan
                every: 8mm
                command: 'echo "$GESTURE_STEP $GESTURE_TRANSLATION_Y" >> \(out)'
            """, in: dir)
        let yaml = try String(contentsOfFile: config, encoding: .utf8)
        #expect(yaml.contains("\nsurfaces: []"))
        try yaml.replacingOccurrences(of: "\nsurfaces: []", with: "\nsurfaces: [{ match: { name: EP0430M09 }, size: [1280, 768] }]")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try Self.daemon(config: config, recording: Self.scroll, dir: dir)
        #expect(Self.settled(daemon), "log:\n\(daemon.log)")
        let runs = Self.lines(out).map { $0.split(separator: " ") }
        #expect(runs.map { $0.first.map(String.init) } == ["-1", "-1", "-1"], "\(runs)")
        // Each step fired when the translation passed a multiple of 80 px.
        let ys = runs.compactMap { $0.last.flatMap { Double($0) } }
        #expect(zip(ys, [-80.0, -160, -240]).allSatisfy { $0 <= $1 && $0 > $1 - 10 }, "\(ys)")
    }

    @Test func aHangingCommandHoldsBackNeitherOtherBindingsNorClients() throws {
        let dir = TempDir()
        let out = dir.file("other")
        let config = try Self.config("""
            bindings:
              max-concurrent: 2
              commands:
                - gesture: pan
                  states: [began, changed]
                  command: 'sleep 100'
                  timeout: 200s
                - gesture: pan
                  states: [changed]
                  command: 'echo "$GESTURE_STEPS" >> \(out)'
            """, in: dir)
        let replay = try runBinary("gestured", ["replay", "--config", config, Self.drag])
        let expectedPans = FilteredClientsTests.comparable(replay.stdout.split(separator: "\n").map(String.init), kind: "pan")
        #expect(expectedPans.count > 10)

        let daemon = try Self.daemon(config: config, recording: Self.drag, dir: dir, whenSubscribed: true)
        let watcher = ChildWatcher(parent: daemon.pid)
        defer { watcher.killAll() }
        watcher.start()
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"subscribe","kinds":["pan"]}"#))["ok"] as? Bool == true)
        var received: [String] = []
        while received.last.map({ !$0.contains("\"state\":\"ended\"") }) ?? true {
            guard let line = try client.readLine(timeout: 15_000) else { break }
            received.append(line)
        }
        // Every line, as replay prints it, while `sleep 100` ran all along.
        #expect(FilteredClientsTests.comparable(received, kind: "pan") == expectedPans)
        let changed = received.filter { $0.contains("\"state\":\"changed\"") }.count
        // The other binding ran again and again; its runs account for every trigger (GESTURE_STEPS).
        #expect(waitUntil(timeout: 10) { Self.lines(out).compactMap { Int($0) }.reduce(0, +) == changed },
                "\(Self.lines(out)) for \(changed) changed lines; log:\n\(daemon.log)")
        #expect(Self.lines(out).count >= 2)
        let status = try Self.status(daemon)
        #expect(status["bindingsRunning"] as? Int == 1)   // the sleep
        #expect(status["bindingsQueued"] as? Int == 1)    // its triggers since, as one pending run
        watcher.stop()
        #expect(watcher.most <= 2, "at most max-concurrent commands at once, saw \(watcher.most)")
        #expect(watcher.most >= 1)
        #expect(daemon.stop() == 0, "log:\n\(daemon.log)")
    }

    @Test func theCooldownLetsOneRunThroughPerPeriod() throws {
        let dir = TempDir()
        let out = dir.file("runs")
        let config = try Self.config("""
            bindings:
              - gesture: pan
                states: [changed]
                cooldown: 60s
                command: 'echo "$GESTURE_STEPS" >> \(out)'
            """, in: dir)
        let daemon = try Self.daemon(config: config, recording: Self.drag, dir: dir)
        #expect(Self.settled(daemon), "log:\n\(daemon.log)")
        #expect(Self.lines(out) == ["1"])
        #expect(try Self.status(daemon)["bindingsCooledDown"] as? Int ?? 0 > 10)
    }

    @Test func withoutUinputKeysAreDroppedWithOneClearMessageAndTheRestRuns() throws {
        let dir = TempDir()
        let out = dir.file("ran")
        let config = try Self.config("""
            bindings:
              - gesture: pan
                states: [began, changed]
                keys: [leftctrl, leftalt, right]
              - gesture: pan
                command: 'echo "$GESTURE_STATE" >> \(out)'
            """, in: dir)
        let daemon = try Self.daemon(config: config, recording: Self.drag, dir: dir)
        #expect(Self.settled(daemon), "log:\n\(daemon.log)")
        #expect(Self.lines(out) == ["ended"])
        let message = "keys bindings are disabled (everything else keeps running): \(dir.file("no-uinput")): open failed"
        #expect(daemon.log.components(separatedBy: message).count == 2, "log:\n\(daemon.log)")
        #expect(daemon.log.contains("modprobe uinput"))
        let keyboard = try Self.status(daemon)["keyboard"] as? [String: Any] ?? [:]
        #expect(keyboard["state"] as? String == "unavailable")
        #expect(keyboard["path"] as? String == dir.file("no-uinput"))
        #expect(keyboard["errno"] as? Int == 2)
        #expect(keyboard["keys"] as? [String] == ["leftctrl", "leftalt", "right"])
        #expect(keyboard["dropped"] as? Int ?? 0 > 10)
    }
}

/// Watches a process's children from another thread (every few ms): the most seen at once, and
/// their pids, to kill what a test leaves behind.
final class ChildWatcher: @unchecked Sendable {
    private let parent: Int32
    private let lock = NSLock()
    private var running = false
    private var _most = 0
    private var seen: Set<Int32> = []

    init(parent: Int32) { self.parent = parent }

    var most: Int { lock.withLock { _most } }

    func start() {
        lock.withLock { running = true }
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let children = Self.children(of: parent)
                lock.withLock {
                    _most = max(_most, children.count)
                    seen.formUnion(children)
                }
                usleep(2_000)
            }
        }
    }

    func stop() { lock.withLock { running = false } }

    /// Kills the process groups of every child seen (binding commands lead their own group).
    func killAll() {
        stop()
        for pid in lock.withLock({ seen }) { kill(-pid, SIGKILL) }
    }

    static func children(of parent: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name -> Int32? in
            guard let pid = Int32(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state, ppid.
            guard fields.count > 1, Int32(fields[1]) == parent, fields[0] != "Z" else { return nil }
            return pid
        }
    }
}
