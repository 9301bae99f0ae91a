import ArgumentParser
import GestureDesktop
import GestureProtocol
import GesturePosix
#if canImport(Glibc)
import Glibc
#endif

extension DesktopBackend: ExpressibleByArgument {}

extension GestureCtl {
    /// `gesturectl desktop`: the session bridge (docs/desktop.md, "The bridge").
    struct Desktop: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the daemon's picture of the desktop's outputs and windows current (the session bridge).",
            discussion: """
            Reads the compositor's outputs and visible windows (sway, i3, Hyprland, niri, or an X11 window \
            manager through EWMH, GNOME Shell through its gestured extension, or KWin through the KWin script \
            it loads, both on the session bus) after each of its events, and every poll interval while windows \
            exist, and sends them to the daemon as `desktop` snapshots when they changed. The backend comes \
            from the environment: a GNOME or KDE Wayland session ($XDG_CURRENT_DESKTOP) is read over the \
            session bus; otherwise $SWAYSOCK, $I3SOCK, \
            $HYPRLAND_INSTANCE_SIGNATURE, $NIRI_SOCKET, then $DISPLAY. \
            A compositor or daemon that goes away is tried again with backoff. Run by the user unit \
            gestured-desktop.service (docs/desktop.md).
            """)
        @Option(name: .long, help: ArgumentHelp(
            "Daemon socket.",
            discussion: "Default: \(SocketPath.summary)."))
        var socket: String?
        @Option(name: .long, help: "The compositor to read (default: from the environment).")
        var backend: DesktopBackend?
        @Flag(name: .long, help: "Write the snapshots' request lines to stdout instead of sending them to the daemon.")
        var print = false
        @Flag(name: .long, help: "Send (or print) one snapshot and exit.")
        var once = false
        @Option(name: .customLong("poll-interval"), help: ArgumentHelp(
            "Milliseconds between reads while windows exist, for the moves and resizes the compositor sends no event for (sway, i3, Hyprland; 50...1000).",
            valueName: "ms"))
        var pollInterval: Int = 500
        @Option(name: .long, help: "The seat the windows belong to.")
        var seat: String = "seat0"
        @Option(name: .customLong("kwin-script"), help: ArgumentHelp(
            "The KWin script to load on KDE Plasma.",
            discussion: "Default: $\(DesktopAssets.environmentKey)/\(DesktopAssets.kwinScript), else the installed \(DesktopSourceCatalog.installedKWinScript), else the checkout's desktop/\(DesktopAssets.kwinScript) when gesturectl was built from one.",
            valueName: "path"))
        var kwinScript: String?

        @Flag(name: .long, help: ArgumentHelp(
            "Say what works on this desktop and what is missing, each with its fix, then exit (1 when something is missing).",
            discussion: "Checks the desktop the environment names (or --backend), the session bus, the compositor's answer, GNOME's extension (installed, enabled, the variant for the Shell's version, running), KDE's script (found, loaded, reporting) and kscreen-doctor, and whether the daemon answers on --socket."))
        var check = false

        func validate() throws {
            guard (50...1000).contains(pollInterval) else {
                throw ValidationError("--poll-interval must be 50...1000 ms, got \(pollInterval)")
            }
            guard !seat.isEmpty, seat.utf8.count <= 128 else {
                throw ValidationError("--seat must be 1 to 128 bytes, got '\(seat)'")
            }
        }

        func run() throws {
            if check { try runCheck() }
            let choice: BackendChoice
            switch BackendChoice.choose(environment: Self.environment(), forced: backend) {
            case .success(let found): choice = found
            case .failure(let failure): fail(failure.message)
            }
            let log: (String) -> Void = { writeStandardError("gesturectl desktop: \($0)\n") }
            let sink: SnapshotSink
            if print {
                sink = PrintSink(fd: 1)
            } else {
                let daemon = DaemonSink(path: socket ?? ControlClient.defaultSocketPath, log: log)
                // A binding's action on a window (docs/desktop.md): done here, where the compositor is.
                daemon.onWindowAction = { line in
                    if case .failure(let error) = WindowActions.perform(line, choice: choice) { log("window action: \(error)") }
                }
                sink = daemon
            }
            var options = DesktopBridge.Options()
            options.pollInterval = Int64(pollInterval) * 1000
            options.once = once
            options.seat = seat
            // A daemon that went away is an error the bridge handles (EPIPE); with --print, a reader
            // of stdout that went away ends the bridge, as it ends any command in a pipeline.
            if !print { signal(SIGPIPE, SIG_IGN) }
            // SIGTERM / SIGINT / SIGHUP stop the bridge through its loop, so that what it set up in
            // the session (KDE: the KWin script) is taken down.
            let stopSignals = [SIGTERM, SIGINT, SIGHUP]
            SignalFD.block(stopSignals)
            let stop = try? SignalFD(signals: stopSignals)
            options.stopDescriptor = stop?.fd.rawValue
            let source = DesktopSourceCatalog.make(choice, kwinScript: kwinScript, environment: Self.environment())
            let bridge = DesktopBridge(source: source, sink: sink, options: options, log: log)
            let status = bridge.run()
            source.disconnect()
            if status != 0 { throw ExitCode(status) }
        }

        /// `--check`: the desktop's part (DesktopCheck), then the daemon's.
        func runCheck() throws -> Never {
            var items = DesktopCheck.run(environment: Self.environment(), forced: backend, kwinScript: kwinScript)
            let path = socket ?? ControlClient.defaultSocketPath
            do {
                let client = try ControlClient(path: path)
                try client.send("{\"request\":\"status\"}")
                // The reply is the first response line (a subscriber's lines may come before it).
                var reply: String?
                while let line = try client.readLine(timeout: 5000) {
                    if line.hasPrefix("{\"type\":\"response\"") { reply = line; break }
                }
                if let reply, reply.contains("\"ok\":true") {
                    items.append(DesktopCheck.Item(.ok, "the daemon answers on \(path)"))
                } else {
                    items.append(DesktopCheck.Item(.missing, "the daemon on \(path) did not answer its status request",
                                                   fix: "systemctl status gestured (or gestured run) and its log"))
                }
            } catch {
                items.append(DesktopCheck.Item(.missing, "the daemon is not reachable: \(error)",
                                               fix: "start it: systemctl enable --now gestured.socket (the package's units), or gestured run; pass --socket PATH for another socket"))
            }
            Swift.print(DesktopCheck.text(items), terminator: "")
            throw ExitCode(items.contains { $0.status == .missing } ? 1 : 0)
        }

        static func environment() -> [String: String] { ProcessEnvironment.current() }
    }
}
