import ArgumentParser
import GestureDaemon
import GestureProtocol
import Logging

/// `gestured run`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the daemon: read touch devices, publish gestures on the socket.")

    @Option(name: .long, help: ArgumentHelp(
        "Configuration file.",
        discussion: "Default: $GESTURED_CONFIG, else ~/.config/gestured/gestured.yaml (not as root), else /etc/gestured/gestured.yaml, else the embedded default; looked up again at every reload."))
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "Socket path.",
        discussion: "Default: the config's socket.path, else \(SocketPath.summary) (docs/daemon.md, \"The socket path\"); gesturectl looks in the same places."))
    var socket: String?

    @Flag(name: .long, help: "Open no input device (socket and bindings only; for tests).")
    var noDevices = false

    @Option(name: .long, help: ArgumentHelp(
        "Feed a recording through the live loop at its recorded pace, as an extra device (repeatable).",
        discussion: "For trying a config and its bindings without touching the screen. Every recording starts when injection starts, whatever its recorded timestamps."))
    var inject: [String] = []

    @Flag(name: .long, help: "Start the --inject recordings when the first client subscribes, records, or attaches regions.")
    var injectWhenSubscribed = false

    @Option(name: .long, help: ArgumentHelp(
        "Start the --inject recordings at the Nth subscribe, record or attach, from all clients together (implies --inject-when-subscribed).",
        discussion: "For a scene of several clients that must all be set up before the first touch.", valueName: "n"))
    var injectAfter: Int?

    @Option(name: .long, help: "The uinput device node for the virtual keyboard of keys: bindings.")
    var uinput: String = "/dev/uinput"

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @OptionGroup var quirkSource: QuirksOptions

    func run() throws {
        if let injectAfter, injectAfter < 1 { throw ValidationError("--inject-after must be 1 or more, got \(injectAfter)") }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        JournalLogHandler.bootstrap(level: level)
        var options = DaemonOptions(configPath: config, socketPath: socket, opensDevices: !noDevices,
                                    injectedRecordings: inject, injectsWhenSubscribed: injectWhenSubscribed || injectAfter != nil,
                                    injectAfterRequests: injectAfter ?? 1,
                                    uinputPath: uinput)
        options.quirks = quirkSource.source
        let status = Daemon.main(options: options, logger: Logger(label: "gestured"))
        if status != 0 { throw ExitCode(status) }
    }
}
