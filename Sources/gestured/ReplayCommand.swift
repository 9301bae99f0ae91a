import ArgumentParser
import GestureCore
import GestureConfig
import GestureDaemon
import GestureReport
import GesturePosix
import GestureRecording
import Logging

extension OutputFormat: ExpressibleByArgument {}

/// `gestured replay FILE...`: feeds recordings through the live pipeline and prints JSON lines.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay evemu or libinput-record recordings through the gesture pipeline.",
        discussion: """
            Every file is its own device (ids in file order); events are merged by time. Output is the \
            same JSON lines the socket publishes (or, on a terminal, one aligned text line per \
            gesture), deterministic: time comes only from the recorded timestamps. Warnings and \
            errors go to stderr as file:line: message. With --expect the output is compared with a \
            golden file instead of printed: exit 0 when equal, 1 with the differences when not.
            """)

    @Argument(help: "Recording files (evemu .evemu/.events, libinput record .yml).")
    var files: [String]

    @Option(name: .long, help: "Configuration file (default: the embedded default config).")
    var config: String?

    @Option(name: .long, help: "evemu description file for events-only recordings.")
    var desc: String?

    @Flag(name: .long, help: "Also print every touch of every frame.")
    var touches = false

    @Flag(name: .long, help: "Also print explain lines (why recognizers changed state).")
    var explain = false

    @Flag(name: [.short, .long], help: "With --explain: also the routine lines (a recognizer received a touch, a gesture moved or lifted, the sequence ended).")
    var verbose = false

    @Flag(name: .long, help: ArgumentHelp(
        "Also print what the config's bindings would do, at each gesture event that fires one: the keys, the command and its environment. Nothing runs and no key is pressed.",
        discussion: "Decided by the daemon's own binding dispatcher (states, steps of every:, cooldowns); each command is taken as done before the next trigger, where a live daemon would coalesce triggers that come while it runs."))
    var bindings = false

    @Flag(name: .long, help: "Replay at the recorded speed instead of as fast as possible.")
    var realtime = false

    @Option(name: .long, help: ArgumentHelp(
        "Output format: text (aligned, one line per gesture, for people) or json (the protocol's lines).",
        discussion: "Default: text when stdout is a terminal, json otherwise."))
    var format: OutputFormat?

    @Option(name: .long, help: ArgumentHelp(
        "Also draw the replay as an SVG picture: surface, regions, touch paths, gestures (and with --explain the failed recognizers).",
        valueName: "file.svg"))
    var svg: String?

    @Option(name: .long, help: ArgumentHelp(
        "Compare the JSON output with this golden file instead of printing it: exit 0 when equal, 1 with a diff.",
        valueName: "golden.jsonl"))
    var expect: String?

    @Flag(name: .long, help: "With --expect: write the golden file from this replay instead of comparing.")
    var writeExpected = false

    @Option(name: .long, help: ArgumentHelp(
        "Forward the devices as `devices: { forward: true }` does and write what the desktop would get, as an evemu file (several devices: file.1.evemu, file.2.evemu…).",
        valueName: "file.evemu"))
    var forward: String?

    @Option(name: .long, help: ArgumentHelp(
        "Replay over this desktop: a snapshot of the desktop request's JSON lines, as `gesturectl desktop --print --once` prints them.",
        discussion: "Its windows become regions with the config's window rules, touchscreens follow their output, and lines over a window name it.",
        valueName: "snapshot.json"))
    var desktop: String?

    @Flag(name: .long, help: ArgumentHelp(
        "First print the `scene` reply a daemon playing these recordings would give: the config's regions and gestures, the desktop, and each recording's surface as the engine lays it out (its output, its regions' frames).",
        discussion: "One JSON line, whatever the format; `gesturectl view --replay` reads it."))
    var scene = false

    @Option(name: .long, help: "Serve the output on this Unix socket instead of stdout.")
    var socket: String?

    @Flag(name: .long, help: "With --socket: wait for a client to subscribe before replaying.")
    var waitForClient = false

    @OptionGroup var quirkSource: QuirksOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one recording file") }
        if waitForClient && socket == nil { throw ValidationError("--wait-for-client needs --socket") }
        if verbose && !explain { throw ValidationError("--verbose adds routine explain lines: give it with --explain") }
        if writeExpected && expect == nil { throw ValidationError("--write-expected needs --expect FILE (the file to write)") }
        if socket != nil && (expect != nil || svg != nil || format != nil || bindings || forward != nil) {
            throw ValidationError("--socket serves the protocol's JSON lines; it does not combine with --format, --svg, --expect, --bindings or --forward")
        }
        if scene && (expect != nil || socket != nil) {
            throw ValidationError("--scene prints the scene line before the replay's; it does not combine with --expect or --socket")
        }
        if bindings && expect != nil { throw ValidationError("--bindings prints; it does not combine with --expect") }
    }

    func run() throws {
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: config)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(2)
        }
        var recordings: [Recording]
        do {
            recordings = try Replay.load(paths: files, descriptionPath: desc)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        for line in Replay.warningLines(recordings) { writeStandardError(line + "\n") }
        if let database = QuirksLoading.load(quirkSource.source) {
            for line in database.problems { writeStandardError(line + "\n") }
            recordings = Replay.applying(database, to: recordings)
        }
        var options = ReplayOptions(configuration: configuration, emitsAllTouches: touches, explains: explain)
        // Forwarding as the daemon does: a read (a frame) at a time, written ahead when nothing can take it.
        options.readsFrames = forward != nil
        if let desktop {
            do {
                options.desktop = try Replay.loadDesktop(path: desktop)
            } catch {
                writeStandardError(error.description + "\n")
                throw ExitCode(1)
            }
        }

        if let socket {
            JournalLogHandler.bootstrap()
            let server = try ReplayServer(path: socket, settings: configuration.socket,
                                          logger: Logger(label: "gestured.replay"))
            try server.serve(recordings, options: options, realtime: realtime, waitForClient: waitForClient)
            return
        }

        var pace: ((Timestamp) -> Void)?
        if realtime {
            var origin: (event: Timestamp, clock: Int64)?
            pace = { time in
                if let start = origin {
                    sleepUntilMonotonic(start.clock + (time.microseconds - start.event.microseconds))
                } else {
                    origin = (time, monotonicMicroseconds())
                }
            }
        }
        var presentation = ReplayPresentation(
            format: format ?? .automatic(), printsTouches: touches, svgPath: svg, expectPath: expect,
            writesExpected: writeExpected, forwardPath: forward, configName: config ?? "default (embedded)")
        presentation.printsBindings = bindings
        presentation.showsRoutine = verbose
        presentation.printsScene = scene
        let status = presentation.run(recordings, options: options, pace: pace)
        if status != 0 { throw ExitCode(status) }
    }
}
