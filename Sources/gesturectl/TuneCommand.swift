#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureCore
import GesturePosix
import GestureProtocol
import GestureReport

extension GestureCtl {
    /// `gesturectl tune GESTURE`: the user does a gesture a few times through the running daemon;
    /// each try is shown recognized or not (and why, from the daemon's explain lines) and kept as a
    /// labelled recording; then `gestured tune` fits the config to every sample of the folder and,
    /// when asked, writes it and reloads the daemon (docs/tune.md).
    struct Tune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Do a gesture a few times, see why each try was or was not recognized, and fit the config to your tries.",
            discussion: """
                Needs no root: the tries are recorded through the running daemon (as `gesturectl record`). \
                Each try is kept in --folder as try-N.GESTURE.evemu, so the folder collects your samples \
                (run it for other gestures too: their samples compete in the fit). The fit is \
                `gestured tune --config CONFIG FOLDER` (found beside gesturectl, else on the PATH); \
                with --yes, or when you answer y, the tuned config is written to --write (default: the \
                daemon's config file) and the daemon reloads it.
                """)
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The gesture id to do (see `gesturectl status`).")
        var gesture: String
        @Option(name: .long, help: "How many tries.")
        var tries: Int = 5
        @Option(name: .long, help: "Seconds each try records.")
        var seconds: Double = 3
        @Option(name: .long, help: "Device name or id (default: the only device).")
        var device: String?
        @Option(name: .long, help: ArgumentHelp("Where the tries are kept (created if needed).", valueName: "dir"))
        var folder: String = "gestured-samples"
        @Option(name: .long, help: "The config to tune (default: the daemon's config file).")
        var config: String?
        @Option(name: .long, help: ArgumentHelp("Where to write the tuned config (default: the config tuned).", valueName: "out.yaml"))
        var write: String?
        @Flag(name: .long, help: "Write the tuned config and reload without asking.")
        var yes = false
        @Option(name: .long, help: ArgumentHelp("The gestured binary that fits (default: beside gesturectl, else on the PATH).", valueName: "path"))
        var gestured: String?

        func validate() throws {
            if tries < 1 { throw ValidationError("--tries must be 1 or more") }
            if !(seconds > 0) { throw ValidationError("--seconds must be more than 0") }
        }

        func run() throws {
            let client = try connection.connect()
            let status = JSONValue(parsing: try connection.request(client, "{\"request\":\"status\"}", printing: false))
            let known = status?["gestures"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !known.isEmpty && !known.contains(gesture) {
                fail("no gesture '\(gesture)' in the daemon's config (gestures: \(known.joined(separator: ", ")))")
            }
            let daemonConfig = status?["config"]?.stringValue.flatMap { $0 == "default" ? nil : $0 }
            guard let tuned = config ?? daemonConfig else {
                fail("the daemon runs the embedded default config: give --config FILE (a copy of it to tune) and --write")
            }
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                fail("cannot create \(folder): \(String(cString: strerror(errno)))")
            }
            var recognized = 0
            for index in 1...tries {
                let path = nextFreePath(label: gesture)
                print("try \(index) of \(tries): do \(gesture) now (\(ThresholdText.seconds(seconds)))")
                flushStandardOutput()
                let watcher = try connection.connect()
                _ = try connection.request(watcher, subscribeLine(gestures: [], kinds: [], regions: [], devices: [], touches: []),
                                           printing: false)
                _ = try connection.request(watcher, "{\"request\":\"explain\"}", printing: false)
                watcher.readStreamFromPassedPipe()
                let recorder = RecordClient(device: device, seconds: seconds, outputPath: path, replyTimeout: connection.milliseconds)
                let code = recorder.run(try connection.connect())
                if code != 0 { throw ExitCode(code) }
                let verdict = TryVerdict.read(watcher, gesture: gesture)
                guard Self.holdsEvents(path) else {
                    unlink(path)
                    print("  no touch during the try: not kept")
                    flushStandardOutput()
                    continue
                }
                if verdict.isRecognized { recognized += 1 }
                print("  " + verdict.text + "  (\(path))")
                flushStandardOutput()
            }
            print("\(recognized) of \(tries) tries recognized; fitting \(tuned) to the samples in \(folder)")
            flushStandardOutput()
            let binary = gestured ?? gesturedBinary()
            let shown = spawnAndWait(binary, ["tune", "--config", tuned, "--format", "text", folder])
            if shown != 0 { fail("\(binary) tune failed (exit \(shown))") }
            let target = write ?? tuned
            if !yes {
                print("write the tuned config to \(target) and reload the daemon? [y/N] ", terminator: "")
                flushStandardOutput()
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                    print("nothing written")
                    return
                }
            }
            let wrote = spawnAndWait(binary, ["tune", "--config", tuned, "--write", target, "--format", "text", folder],
                                     quiet: true)
            if wrote != 0 { fail("\(binary) tune --write \(target) failed (exit \(wrote))") }
            print("wrote \(target)")
            if target == daemonConfig {
                _ = try connection.request(try connection.connect(), "{\"request\":\"reload\"}", printing: false)
                print("the daemon reloaded \(target)")
            } else {
                print("the daemon runs \(daemonConfig ?? "the embedded default"): it was not reloaded")
            }
        }

        /// Whether a recording holds any event (a try with no touch is not a sample).
        static func holdsEvents(_ path: String) -> Bool {
            guard case .success(let bytes) = readWholeFile(path) else { return false }
            return String(decoding: bytes, as: UTF8.self).contains("\nE: ")
        }

        /// `FOLDER/try-N.GESTURE.evemu` with the first N not taken.
        func nextFreePath(label: String) -> String {
            var n = 1
            while true {
                let path = "\(folder)/try-\(n).\(label).evemu"
                if access(path, F_OK) != 0 { return path }
                n += 1
            }
        }

        /// `gestured` beside this gesturectl, else the name alone (looked up on the PATH).
        func gesturedBinary() -> String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if n > 0 {
                let me = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let slash = me.lastIndex(of: "/") {
                    let sibling = String(me[..<slash]) + "/gestured"
                    if access(sibling, X_OK) == 0 { return sibling }
                }
            }
            return "gestured"
        }
    }
}

/// What the daemon said about one try: the gestures recognized or begun, and why the wanted one failed.
struct TryVerdict {
    var gestures: [String] = []
    var reasons: [String] = []
    let gesture: String

    var isRecognized: Bool { gestures.contains(gesture) }

    var text: String {
        if isRecognized { return "✓ \(gesture) recognized" }
        var parts: [String] = []
        if let reason = reasons.first { parts.append(reason) }
        if !gestures.isEmpty { parts.append("gave \(gestures.joined(separator: ", "))") }
        if parts.isEmpty { parts.append("no touch reached it") }
        return "✗ not recognized: " + parts.joined(separator: "; ")
    }

    /// Reads the lines the watcher's subscription queued during the try (until none comes for 300 ms).
    static func read(_ watcher: ControlClient, gesture: String) -> TryVerdict {
        var verdict = TryVerdict(gesture: gesture)
        while let line = try? watcher.readLine(timeout: 300) {
            guard let value = JSONValue(parsing: line), let type = value["type"]?.stringValue else { continue }
            let name = value["gesture"]?.stringValue ?? ""
            let state = value["state"]?.stringValue ?? value["to"]?.stringValue ?? ""
            if type == "gesture" && (state == "recognized" || state == "began") && !verdict.gestures.contains(name) {
                verdict.gestures.append(name)
            }
            if type == "explain" && name == gesture && state == "failed", let reason = value["reason"]?.stringValue {
                verdict.reasons.append(reason)
            }
        }
        return verdict
    }
}

enum ThresholdText {
    /// "3 s", "1.5 s".
    static func seconds(_ value: Double) -> String { JSONLine.number(value) + " s" }
}

func flushStandardOutput() { fflush(nil) }

/// Runs a program with this process's standard streams and waits for it; its exit status.
func spawnAndWait(_ path: String, _ arguments: [String], quiet: Bool = false) -> Int32 {
    switch ChildProcess.run(path, arguments, quietOutput: quiet) {
    case .success(let status): return status
    case .failure(let error):
        writeStandardError("gesturectl: cannot run \(path): \(String(cString: strerror(error.rawValue)))\n")
        return 127
    }
}
