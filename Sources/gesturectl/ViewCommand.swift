import ArgumentParser
import GesturePosix
import GestureProtocol
#if canImport(Glibc)
import Glibc
#endif

extension GestureCtl {
    /// `gesturectl view` (docs/view.md): runs the view's own program, gesturectl-view, with these
    /// options. The web server (FlyingFox, and the Foundation it needs) lives there, so gesturectl
    /// itself stays small and links no HTTP library.
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the fingers, regions, windows and every gesture's state and reason in the browser, live.",
            discussion: """
            Starts a web server on 127.0.0.1 (a free port, or --port) with a random token in its URL, \
            subscribes to the daemon like `gesturectl listen` (touches, gestures, explain lines, and \
            status, devices and the scene once a second) and streams what it reads to the page. Opens the \
            browser with xdg-open when there is a display, and prints the URL either way. Requests without \
            the token, or from another Origin, are refused; the page cannot change the daemon. \
            With --replay, shows a recording instead (run through `gestured replay`), played by the page \
            with a scrub timeline at 0.25× to 4×. Ctrl-C stops it.
            """)

        @Option(name: .long, help: ArgumentHelp(
            "Daemon socket.",
            discussion: "Default: \(SocketPath.summary)."))
        var socket: String?

        @Option(name: .long, help: "Port on 127.0.0.1 (default: a free one).")
        var port: UInt16 = 0

        @Flag(name: .customLong("no-open"), help: "Print the URL only; do not start a browser.")
        var noOpen = false

        @Option(name: .long, help: ArgumentHelp("Show this recording instead of the live daemon (run through `gestured replay`); repeat for several.",
                                               valueName: "file"))
        var replay: [String] = []

        @Option(name: .long, help: ArgumentHelp("With --replay: the desktop snapshot to replay over (`gesturectl desktop --print --once`).",
                                               valueName: "file"))
        var desktop: String?

        @Option(name: .long, help: ArgumentHelp("With --replay: the configuration to replay with (default: gestured's embedded one).",
                                               valueName: "file"))
        var config: String?

        func validate() throws {
            if replay.isEmpty && (desktop != nil || config != nil) {
                throw ValidationError("--desktop and --config go with --replay (a live view shows the daemon's own)")
            }
        }

        func run() throws {
            var arguments = ["--socket", socket ?? ControlClient.defaultSocketPath, "--port", String(port)]
            if noOpen { arguments.append("--no-open") }
            for file in replay { arguments += ["--replay", file] }
            if let desktop { arguments += ["--desktop", desktop] }
            if let config { arguments += ["--config", config] }
            let program = Self.program()
            let argv = ([program] + arguments).map { strdup($0) } + [nil]
            execv(program, argv)
            fail("cannot run \(program): \(String(cString: strerror(errno))) (it comes with gesturectl in the gestured package)")
        }

        /// gesturectl-view beside this binary (a build, or /usr/bin), else where the package puts it.
        static func program() -> String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if n > 0 {
                let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let beside = String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/gesturectl-view"
                if access(beside, X_OK) == 0 { return beside }
            }
            return "/usr/libexec/gestured/gesturectl-view"
        }
    }
}
