import ArgumentParser
import GestureCore
import GestureConfig
import GestureDaemon
import GesturePosix
import GestureRecording
import Logging

/// `gestured replay FILE...`: feeds recordings through the live pipeline and prints JSON lines.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay evemu or libinput-record recordings through the gesture pipeline.",
        discussion: """
            Every file is its own device (ids in file order); events are merged by time. Output is the \
            same JSON lines the socket publishes, one per line, deterministic: time comes only from \
            the recorded timestamps. Warnings and errors go to stderr as file:line: message.
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

    @Flag(name: .long, help: "Replay at the recorded speed instead of as fast as possible.")
    var realtime = false

    @Option(name: .long, help: "Serve the output on this Unix socket instead of stdout.")
    var socket: String?

    @Flag(name: .long, help: "With --socket: wait for a client to subscribe before replaying.")
    var waitForClient = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one recording file") }
        if waitForClient && socket == nil { throw ValidationError("--wait-for-client needs --socket") }
    }

    func run() throws {
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: config)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(2)
        }
        let recordings: [Recording]
        do {
            recordings = try Replay.load(paths: files, descriptionPath: desc)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        for line in Replay.warningLines(recordings) { writeStandardError(line + "\n") }
        let options = ReplayOptions(configuration: configuration, emitsAllTouches: touches, explains: explain)

        if let socket {
            JournalLogHandler.bootstrap()
            let server = try ReplayServer(path: socket, settings: configuration.socket,
                                          logger: Logger(label: "gestured.replay"))
            try server.serve(recordings, options: options, realtime: realtime, waitForClient: waitForClient)
            return
        }

        let writer = LineWriter(fd: 1, flushesEachLine: realtime)
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
        Replay.run(recordings, options: options, pace: pace) { writer.write(line: $0.jsonLine) }
        writer.flush()
    }
}
