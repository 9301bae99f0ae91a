import ArgumentParser
import GestureCore
import GestureProtocol
import GesturePosix
import GestureReport

extension OutputFormat: ExpressibleByArgument {}

/// Options every subcommand shares.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Daemon socket.",
        discussion: "Default: \(SocketPath.summary), where the daemon listens by default; not root, a missing $XDG_RUNTIME_DIR socket falls back to /run/gestured/gestured.sock (docs/daemon.md, \"The socket path\")."))
    var socket: String?

    @Option(name: .long, help: "Seconds to wait for a response.")
    var timeout: Double = 5

    /// Connects and reads the hello line.
    func connect() throws -> ControlClient {
        let path = socket ?? ControlClient.defaultSocketPath
        do {
            let client = try ControlClient(path: path)
            guard let hello = try client.readLine(timeout: milliseconds), hello.contains("\"type\":\"hello\"") else {
                fail("\(path): the daemon did not greet (expected a hello line)")
            }
            return client
        } catch {
            var message = "cannot reach gestured: \(error)"
            if socket == nil {
                message += "\n(looked in " + SocketPath.current.candidates.joined(separator: ", ")
                    + "; give --socket PATH or set GESTURED_SOCKET for a daemon elsewhere)"
            }
            fail(message)
        }
    }

    var milliseconds: Int32 { Int32(max(0, min(timeout, 86_400)) * 1000) }

    /// Sends one request and returns its response line; exits 1 on an error line.
    func request(_ client: ControlClient, _ line: String, printing: Bool = true) throws -> String {
        do {
            try client.send(line)
            while let reply = try client.readLine(timeout: milliseconds) {
                if reply.hasPrefix("{\"type\":\"error\"") {
                    writeStandardError("gestured: \(errorMessage(reply))\n")
                    throw ExitCode(1)
                }
                if reply.hasPrefix("{\"type\":\"response\"") {
                    if printing { print(reply) }
                    return reply
                }
            }
            fail("the daemon closed the connection")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            fail("\(error)")
        }
    }
}

extension ConnectionOptions {
    /// Sends one request and prints its response: JSON as it came, or text for a person
    /// (`ResponseText`) when `format` is text.
    func show(_ line: String, format: OutputFormat?) throws {
        let reply = try request(try connect(), line, printing: false)
        switch format ?? .automatic() {
        case .json: print(reply)
        case .text: for text in ResponseText.lines(reply) { print(text) }
        }
    }

    /// Fails when a `--gesture` or `--region` filter names nothing the daemon's config defines
    /// (such a filter would wait in silence). A daemon whose status lists neither is not checked.
    func checkFilters(_ client: ControlClient, gestures: [String], regions: [String]) throws {
        guard !gestures.isEmpty || !regions.isEmpty else { return }
        let status = JSONValue(parsing: try request(client, "{\"request\":\"status\"}", printing: false))
        for (wanted, key, what) in [(gestures, "gestures", "gesture"), (regions, "regions", "region")] {
            guard let known = status?[key]?.arrayValue?.compactMap(\.stringValue) else { continue }
            // The desktop's regions (`window:ID`, `output:NAME`) come and go with the bridge's snapshots:
            // the daemon takes a filter on them whether or not the window is there now.
            for name in wanted where !known.contains(name) && !(what == "region" && DesktopRegions.isDesktopRegion(name)) {
                let near = NameSuggestion.nearest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                fail("no \(what) '\(name)' is configured in the daemon's config\(near); \(key): \(known.joined(separator: ", "))"
                     + (what == "gesture" ? "; an app's own gestures reach only that app" : ""))
            }
        }
    }
}

/// `--gesture`, `--kind`, `--region`: what a subscription (listen, explain) keeps.
struct GestureFilterOptions: ParsableArguments {
    @Option(name: .customLong("gesture"), help: "Only this gesture id (repeatable).")
    var gestures: [String] = []
    @Option(name: .customLong("kind"), help: ArgumentHelp(kindFilterHelp))
    var kinds: [String] = []
    @Option(name: .customLong("region"), help: "Only gestures of this region (repeatable).")
    var regions: [String] = []
}

extension ConnectionOptions {
    /// Checks the filters against the daemon's config (`checkFilters`), then subscribes with them.
    func subscribe(_ client: ControlClient, _ filters: GestureFilterOptions, devices: [String] = [],
                   touches: [String] = []) throws {
        try checkFilters(client, gestures: filters.gestures, regions: filters.regions)
        let line = subscribeLine(gestures: filters.gestures, kinds: filters.kinds, regions: filters.regions,
                                 devices: devices, touches: touches)
        _ = try request(client, line, printing: false)
    }
}

/// `--format` for one-shot requests.
struct ReplyFormatOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Output format: text (for people) or json (the protocol's response line).",
        discussion: "Default: text when stdout is a terminal, json otherwise."))
    var format: OutputFormat?
}

/// The message of an error line.
func errorMessage(_ line: String) -> String { ProtocolLine.message(ofError: line) ?? line }

func fail(_ message: String) -> Never {
    writeStandardError("gesturectl: \(message)\n")
    exitProcess(1)
}

@main
struct GestureCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl", abstract: "Client for the gestured socket.", version: DaemonVersion.versionText,
        subcommands: [Listen.self, Status.self, Devices.self, HitTest.self, Reload.self, Explain.self, Record.self, Inject.self,
                      Rotate.self, Desktop.self, Setup.self, Tune.self, View.self])
}

/// Builds a subscribe request line. The lines come through a pipe of their own (docs/protocol.md,
/// "Streaming through a pipe"): cheaper for the daemon than its socket.
func subscribeLine(gestures: [String], kinds: [String], regions: [String], devices: [String], touches: [String]) -> String {
    var j = JSONLine()
    j.add("request", "subscribe")
    j.add("stream", "pipe")
    if !gestures.isEmpty { j.addRaw("gestures", ProtocolLine.strings(gestures)) }
    if !kinds.isEmpty { j.addRaw("kinds", ProtocolLine.strings(kinds)) }
    if !regions.isEmpty { j.addRaw("regions", ProtocolLine.strings(regions)) }
    if !devices.isEmpty { j.addRaw("devices", ProtocolLine.strings(devices)) }
    if !touches.isEmpty { j.addRaw("touches", ProtocolLine.strings(touches)) }
    return j.line
}

/// Prints every line the daemon sends until it closes the connection, as JSON or as text;
/// routine explain lines only when `verbose`.
func stream(_ client: ControlClient, format: OutputFormat, verbose: Bool = false) throws {
    let printer = OutputPrinter(format: format, writer: LineWriter(fd: 1, flushesEachLine: true))
    printer.showsRoutine = verbose
    printer.begin()
    do {
        while let line = try client.readLine(timeout: -1) { printer.print(jsonLine: line) }
    } catch {
        fail("\(error)")
    }
    printer.finish()
}

/// `--format`, shared by the streaming commands.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Output format: text (aligned, one line per gesture, ms since the first line) or json (the protocol's lines).",
        discussion: "Default: text when stdout is a terminal, json otherwise."))
    var format: OutputFormat?
}

/// `--kind`'s help: every recognizer kind, from `RecognizerKind` (a new kind needs no edit here).
let kindFilterHelp = "Only this kind: " + RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ") + " (repeatable)."

extension GestureCtl {
    struct Listen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print gesture (and touch) events as they happen (text on a terminal, else JSON lines).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: FormatOption
        @OptionGroup var filters: GestureFilterOptions
        @Option(name: .customLong("device"), help: "Only this device name (repeatable).")
        var devices: [String] = []
        @Option(name: .customLong("touches"), help: "Also stream the raw touches of this region; '*' for every region (repeatable).")
        var touches: [String] = []
        @Flag(name: .long, help: "Also print explain lines.")
        var explain = false
        @Flag(name: [.short, .long], help: "With --explain: also the routine lines (a touch received, a gesture moved or lifted, the sequence ended).")
        var verbose = false

        func run() throws {
            let client = try connection.connect()
            try connection.subscribe(client, filters, devices: devices, touches: touches)
            if explain { _ = try connection.request(client, "{\"request\":\"explain\"}", printing: false) }
            client.readStreamFromPassedPipe()
            try stream(client, format: output.format ?? .automatic(), verbose: verbose)
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the daemon's status (text on a terminal, else its JSON line).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: ReplyFormatOption
        func run() throws { try connection.show("{\"request\":\"status\"}", format: output.format) }
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the touch devices the daemon reads (text on a terminal, else its JSON line).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: ReplyFormatOption
        func run() throws { try connection.show("{\"request\":\"devices\"}", format: output.format) }
    }

    struct HitTest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hit-test", abstract: "Show the region chain (hit region first) at a surface point.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: ReplyFormatOption
        @Option(name: .long, help: "Device name or id whose surface to use (default: the first device).")
        var device: String?
        @Option(name: .customLong("output"),
                help: "A desktop output's name: X and Y are its logical pixels, windows included (needs a desktop bridge).")
        var desktopOutput: String?
        /// Taken as they come so that negative numbers are numbers, not options.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("X and Y in surface units (negative ones too).", valueName: "x y"))
        var point: [String] = []

        func validate() throws {
            if device != nil && desktopOutput != nil {
                throw ValidationError("hit-test takes --device or --output, not both")
            }
            guard point.count == 2, point.allSatisfy({ Double($0)?.isFinite == true }) else {
                throw ValidationError("hit-test takes two numbers, X and Y in surface units (e.g. 120 -4.5), got \(point.isEmpty ? "none" : point.joined(separator: " "))")
            }
        }

        func run() throws {
            var j = JSONLine()
            j.add("request", "hit-test")
            j.add("x", Double(point[0])!)
            j.add("y", Double(point[1])!)
            if let device { j.add("device", device) }
            if let desktopOutput { j.add("output", desktopOutput) }
            try connection.show(j.line, format: output.format)
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reload the daemon's config; a broken config is refused and the old one keeps running.")
        @OptionGroup var connection: ConnectionOptions
        func run() throws { _ = try connection.request(try connection.connect(), "{\"request\":\"reload\"}") }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print explain lines: every recognizer state change and why (plus the gestures).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: FormatOption
        @OptionGroup var filters: GestureFilterOptions
        @Flag(name: [.short, .long], help: "Also the routine lines (a touch received, a gesture moved or lifted, the sequence ended).")
        var verbose = false
        func run() throws {
            let client = try connection.connect()
            try connection.subscribe(client, filters)
            _ = try connection.request(client, "{\"request\":\"explain\"}", printing: false)
            client.readStreamFromPassedPipe()
            try stream(client, format: output.format ?? .automatic(), verbose: verbose)
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record the raw events of one device through the running daemon, as an evemu file.",
            discussion: """
                Needs no root and no evemu or libinput tools: the daemon already has the devices open. \
                The file starts with the device's full description and is read back by `gestured replay`. \
                Recording ends after --seconds, when the device goes away, or at Ctrl-C.
                """)
        @OptionGroup var connection: ConnectionOptions
        @Option(name: .long, help: "Device name or id (see `gesturectl devices`; default: the only device).")
        var device: String?
        @Option(name: .long, help: "Record this many seconds (default: until Ctrl-C or the device goes away).")
        var seconds: Double?
        @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The evemu file to write.", valueName: "file"))
        var output: String

        func validate() throws {
            if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be more than 0") }
        }

        func run() throws {
            let recorder = RecordClient(device: device, seconds: seconds, outputPath: output,
                                        replyTimeout: connection.milliseconds)
            let status = recorder.run(try connection.connect())
            if status != 0 { throw ExitCode(status) }
        }
    }
}
