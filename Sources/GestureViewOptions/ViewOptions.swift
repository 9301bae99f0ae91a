import ArgumentParser
import GestureProtocol

/// `gesturectl view`'s options, once (docs/view.md): `gesturectl view` parses them and runs
/// gesturectl-view with `arguments`; gesturectl-view parses the same set, so the two programs'
/// options and help cannot drift apart.
public struct ViewOptions: ParsableArguments {
    /// The command's abstract and discussion, for both programs' configurations.
    public static let abstract = "Show the fingers, regions, windows and every gesture's state and reason in the browser, live."
    public static let discussion = """
        Starts a web server on 127.0.0.1 (a free port, or --port) with a random token in its URL, \
        subscribes to the daemon like `gesturectl listen` (touches, gestures, explain lines, and \
        status, devices and the scene once a second) and streams what it reads to the page. Opens the \
        browser with xdg-open when there is a display, and prints the URL either way. Requests without \
        the token, or from another Origin, are refused; the page cannot change the daemon. \
        With --replay, shows a recording instead (run through `gestured replay`), played by the page \
        with a scrub timeline at 0.25× to 4×. Ctrl-C stops it.
        """

    @Option(name: .long, help: ArgumentHelp(
        "Daemon socket.",
        discussion: "Default: \(SocketPath.summary)."))
    public var socket: String?

    @Option(name: .long, help: "Port on 127.0.0.1 (default: a free one).")
    public var port: UInt16 = 0

    @Flag(name: .customLong("no-open"), help: "Print the URL only; do not start a browser.")
    public var noOpen = false

    @Option(name: .long, help: ArgumentHelp("Show this recording instead of the live daemon (run through `gestured replay`); repeat for several.",
                                           valueName: "file"))
    public var replay: [String] = []

    @Option(name: .long, help: ArgumentHelp("With --replay: the desktop snapshot to replay over (`gesturectl desktop --print --once`).",
                                           valueName: "file"))
    public var desktop: String?

    @Option(name: .long, help: ArgumentHelp("With --replay: the configuration to replay with (default: gestured's embedded one).",
                                           valueName: "file"))
    public var config: String?

    public init() {}

    public func validate() throws {
        if replay.isEmpty && (desktop != nil || config != nil) {
            throw ValidationError("--desktop and --config go with --replay (a live view shows the daemon's own)")
        }
    }

    /// The daemon socket: `--socket`, else where every gesturectl command finds it.
    public var socketPath: String { socket ?? ControlClient.defaultSocketPath }

    /// These options as a command line (the socket resolved), for gesturectl-view.
    public var arguments: [String] {
        var arguments = ["--socket", socketPath, "--port", String(port)]
        if noOpen { arguments.append("--no-open") }
        for file in replay { arguments += ["--replay", file] }
        if let desktop { arguments += ["--desktop", desktop] }
        if let config { arguments += ["--config", config] }
        return arguments
    }
}
