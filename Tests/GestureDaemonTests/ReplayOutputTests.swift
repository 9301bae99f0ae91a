import Foundation
import Testing
import GestureDaemon

extension Paths {
    /// A file under `Tests/Fixtures` (the shared corpus and the derived recordings).
    static func corpus(_ name: String) -> String { packageRoot + "/Tests/Fixtures/" + name }
    static let doubleTap = corpus("evemu-devices/tablets/Wacom ISDv4 E6 Finger.double-tap-center.events")
    static let pinch = corpus("evemu-devices/tablets/dell_canvas_touch.evemu")
    static let pinchZoomIn = corpus("chromiumos-touchmtb/tmtb-link-pinch-zoom_in.evemu")
    static let threeFingerSwipe = corpus("derived/Atmel maXTouch Touchscreen.3-finger-drag-down.evemu")
    static let twoFingerScroll = corpus("evemu-devices/touchscreens/EP0430M09.2-finger-scroll-down.events")
}

/// Runs a program with only stdin, stdout (to a file) and stderr open, and waits (bounded).
/// Not Foundation's Process: a daemon it starts (the tmux server) would inherit Process's
/// termination-watch descriptor, and the program would never look finished.
func spawnClean(_ path: String, _ arguments: [String], timeout: Double = 30) -> (status: Int32, stdout: String) {
    let dir = TempDir()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, dir.file("out"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Close everything else the test process has open (glibc ignores fds closed meanwhile).
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }
    // No signal blocked or ignored, whatever this test thread has (tmux must die on kill-server).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t(), all = sigset_t()
    sigemptyset(&empty)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0 else { return (-1, "") }
    var status: Int32 = 0
    let exited = waitUntil(timeout: timeout) { waitpid(pid, &status, WNOHANG) == pid }
    if !exited {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
    #expect(exited, "\(path) \(arguments) did not finish within \(timeout) s")
    let code = exited && (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    return (code, (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "")
}

/// Runs a command in a real terminal (a detached tmux pane `columns` wide) and returns the rows the
/// terminal shows once it finished: a line wider than the terminal wraps onto a second row.
func runInTerminal(_ command: [String], columns: Int = 80) throws -> [String] {
    let dir = TempDir()
    let socket = dir.file("tmux.sock")
    let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    // Signal the test when done, then keep the pane (and its screen) until the server is killed.
    let script = "\(quoted); tmux -S '\(socket)' wait-for -S done; exec cat"
    try script.write(toFile: dir.file("run.sh"), atomically: true, encoding: .utf8)
    // A history long enough for every line (capture-pane -S - reads it back).
    try "set -g history-limit 20000\n".write(toFile: dir.file("tmux.conf"), atomically: true, encoding: .utf8)
    let tmux = "/usr/bin/tmux"
    #expect(FileManager.default.isExecutableFile(atPath: tmux), "tmux is missing: scripts/test installs it")
    // The server goes before the directory holding its socket.
    defer { withExtendedLifetime(dir) { #expect(spawnClean(tmux, ["-S", socket, "kill-server"]).status == 0) } }
    let started = spawnClean(tmux, ["-S", socket, "-f", dir.file("tmux.conf"), "new-session", "-d", "-x", "\(columns)",
                                    "-y", "50", "-s", "t", "sh " + dir.file("run.sh")])
    #expect(started.status == 0, "tmux new-session failed")
    #expect(spawnClean(tmux, ["-S", socket, "wait-for", "done"], timeout: 60).status == 0)
    let screen = spawnClean(tmux, ["-S", socket, "capture-pane", "-p", "-t", "t", "-S", "-"])
    var rows = screen.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while rows.last?.isEmpty == true { rows.removeLast() }
    return rows
}

/// `gestured replay` for people: the text format (on a real terminal) and golden files.
@Suite(.serialized) struct ReplayOutputTests {
    @Test func theTextFormatNamesTheDoubleTapAndIsNotJSON() throws {
        let text = try runBinary("gestured", ["replay", "--format", "text", Paths.doubleTap])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count >= 2, "\(text.stdout)")
        #expect(lines.allSatisfy { !$0.hasPrefix("{") })
        #expect(lines.contains { $0.contains("double-tap") && $0.contains("recognized") && $0.contains("taps 2") })
        #expect(lines[0].hasPrefix("    ms  gesture"))
        // Piped without --format: JSON, as before.
        let piped = try runBinary("gestured", ["replay", Paths.doubleTap])
        #expect(piped.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"type\":\"gesture\"") })
    }

    @Test func onARealTerminalTheDefaultIsTextAndNoLineWraps() throws {
        for (file, explain) in [(Paths.doubleTap, true), (Paths.twoFingerScroll, true), (Paths.pinch, false)] {
            let flags = explain ? ["--explain", file] : [file]
            let expected = try runBinary("gestured", ["replay", "--format", "text"] + flags).stdout
                .split(separator: "\n").map(String.init)
            #expect(expected.count > 3 && expected.count < 1500)
            #expect(expected.allSatisfy { $0.unicodeScalars.count <= 80 })
            // No --format: the terminal makes it text; 80 columns: a longer line would take two rows.
            let rows = try runInTerminal([Paths.binary("gestured"), "replay"] + flags)
            #expect(rows == expected, "terminal rows differ from the text lines for \(file)")
        }
    }

    @Test func aLongPinchIsSummarisedInsteadOfScrolling() throws {
        let json = try runBinary("gestured", ["replay", "--format", "json", Paths.pinch]).stdout
        let changed = json.split(separator: "\n").filter { $0.contains("\"state\":\"changed\"") }.count
        let text = try runBinary("gestured", ["replay", "--format", "text", Paths.pinch]).stdout
        let lines = text.split(separator: "\n")
        #expect(changed > 100)
        #expect(lines.count < 40, "\(text)")
        #expect(lines.contains { $0.contains("pinch") && $0.contains("changed ×") })
    }

    /// `gesturectl listen` until `done` holds for what it printed (the first subscriber starts the
    /// daemon's injected recording).
    func listen(_ arguments: [String], until done: @escaping (String) -> Bool) throws -> String {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.twoFingerScroll, "--inject-when-subscribed"])
        let out = daemon.dir.file("listen.out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gesturectl"))
        process.arguments = ["listen", "--socket", daemon.socketPath] + arguments
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            // SIGKILL: a child of a test thread inherits its blocked signals (SIGTERM among them).
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let read = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 30) { done(read()) }, "gesturectl listen \(arguments): \(read())")
        return read()
    }

    @Test func gesturectlListenPrintsTextOrJSON() throws {
        let text = try listen(["--format", "text"]) { $0.contains(" ended ") }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "    ms  gesture          kind       state      fingers  values")
        #expect(lines.allSatisfy { !$0.hasPrefix("{") && $0.unicodeScalars.count <= 80 })
        #expect(lines.contains { $0.contains("two-finger-pan") && $0.contains("changed ×") })
        #expect(lines.count < 10, "\(text)")
        // Piped, without --format: the protocol's JSON lines.
        let json = try listen([]) { $0.contains("\"state\":\"ended\"") }
        #expect(json.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"type\":\"gesture\"") })
    }

    @Test func expectPassesOnItsOwnOutputAndFailsWithADiffWhenOneValueDiffers() throws {
        let dir = TempDir()
        let golden = dir.file("scroll.expected.jsonl")
        let write = try runBinary("gestured", ["replay", Paths.twoFingerScroll, "--expect", golden, "--write-expected"])
        #expect(write.status == 0, "\(write.stderr)")
        let written = try String(contentsOfFile: golden, encoding: .utf8)
        // The golden file is exactly the replay's own JSON output.
        #expect(written == (try runBinary("gestured", ["replay", "--format", "json", Paths.twoFingerScroll])).stdout)
        let same = try runBinary("gestured", ["replay", Paths.twoFingerScroll, "--expect", golden])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.isEmpty)
        #expect(same.stderr.contains("as expected"))

        // One value changed in the last gesture line: exit 1, and the diff names it.
        var lines = written.split(separator: "\n").map(String.init)
        let index = lines.count - 1
        let original = lines[index]
        guard let range = original.range(of: "\"fingers\":2") else {
            Issue.record("no two-finger line to change: \(original)")
            return
        }
        lines[index] = original.replacingCharacters(in: range, with: "\"fingers\":3")
        try (lines.joined(separator: "\n") + "\n").write(toFile: golden, atomically: true, encoding: .utf8)
        let differs = try runBinary("gestured", ["replay", Paths.twoFingerScroll, "--expect", golden])
        #expect(differs.status == 1)
        #expect(differs.stderr.contains("1 line differ"), "\(differs.stderr)")
        #expect(differs.stderr.contains("line \(index + 1): ~ changed     two-finger-pan pan"), "\(differs.stderr)")
        #expect(differs.stderr.contains(" ms, 3 fingers"), "\(differs.stderr)")
        #expect(differs.stderr.contains("fingers: expected 3, replayed 2"), "\(differs.stderr)")
        #expect(differs.stderr.contains("--write-expected"))

        let missing = try runBinary("gestured", ["replay", Paths.twoFingerScroll, "--expect", dir.file("none.jsonl")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.jsonl: cannot read the expected output"))
    }

    /// The README's recipe: a directory of recordings and golden files, checked by scripts/check-golden.
    @Test func aDirectoryOfRecordingsAndGoldenFilesIsCheckedByTheRecipe() throws {
        let dir = TempDir()
        for file in [Paths.doubleTap, Paths.threeFingerSwipe] {
            try FileManager.default.copyItem(atPath: file, toPath: dir.file(URL(fileURLWithPath: file).lastPathComponent))
        }
        let script = Paths.packageRoot + "/scripts/check-golden"
        let env = ["/usr/bin/env", "GESTURED=" + Paths.binary("gestured"), script]
        let update = try runTool(env[0], Array(env.dropFirst()) + ["--update", dir.path])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let goldens = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".expected.jsonl") }
        #expect(goldens.count == 2)
        let check = try runTool(env[0], Array(env.dropFirst()) + [dir.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("2 passed, 0 failed"), "\(check.stdout)")

        let swipe = dir.file("Atmel maXTouch Touchscreen.3-finger-drag-down.expected.jsonl")
        let text = try String(contentsOfFile: swipe, encoding: .utf8)
        #expect(text.contains("\"direction\":\"down\""))
        try text.replacingOccurrences(of: "\"direction\":\"down\"", with: "\"direction\":\"up\"")
            .write(toFile: swipe, atomically: true, encoding: .utf8)
        let broken = try runTool(env[0], Array(env.dropFirst()) + [dir.path])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("1 passed, 1 failed"), "\(broken.stdout)")
        #expect(broken.stderr.contains("direction: expected \"up\", replayed \"down\""), "\(broken.stderr)")
    }
}
