#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import GestureCore
import GestureConfig
import GestureRecording
import GestureReport
import GesturePosix

/// What `gestured replay` does with the outputs: print them (JSON or text), draw them (`--svg`),
/// compare them with a golden file (`--expect`) or write that file (`--write-expected`).
public struct ReplayPresentation {
    public var format: OutputFormat
    /// Print touch lines (`--touches`); the picture always gets the touches.
    public var printsTouches: Bool
    public var svgPath: String?
    public var expectPath: String?
    public var writesExpected: Bool
    /// `--forward`: where to write what the desktop gets (an evemu file per device).
    public var forwardPath: String?
    /// How the picture names the configuration.
    public var configName: String
    /// Print what the bindings would do at each gesture event (`--bindings`), doing none of it.
    public var printsBindings = false
    /// Print (and compare) routine explain lines too (`--verbose`).
    public var showsRoutine = false
    /// Print the `scene` reply first (`--scene`), as JSON whatever the format.
    public var printsScene = false

    public init(format: OutputFormat, printsTouches: Bool, svgPath: String? = nil, expectPath: String? = nil,
                writesExpected: Bool = false, forwardPath: String? = nil, configName: String) {
        self.forwardPath = forwardPath
        self.format = format
        self.printsTouches = printsTouches
        self.svgPath = svgPath
        self.expectPath = expectPath
        self.writesExpected = writesExpected
        self.configName = configName
    }

    /// Runs the replay; returns the exit status: 0, 1 when the output differs from the golden file,
    /// 2 when a file cannot be read or written. Messages go to stderr.
    public func run(_ recordings: [Recording], options: ReplayOptions, pace: ((Timestamp) -> Void)? = nil) -> Int32 {
        var options = options
        options.emitsAllTouches = printsTouches || svgPath != nil
        let origin = recordings.compactMap { $0.events.first?.time }.min() ?? .zero
        let comparing = expectPath != nil
        let writer = LineWriter(fd: 1, flushesEachLine: pace != nil)
        let printer = OutputPrinter(format: format, writer: writer, origin: origin)
        printer.showsRoutine = showsRoutine
        let windows = options.windowNames
        printer.windows = windows
        var all: [EngineOutput] = []
        var lines: [String] = []
        let bindings = printsBindings ? BindingPreview.dispatcher(for: recordings, options.configuration, printer: printer) : nil
        if forwardPath != nil { options.forwards = true }
        var clones = Replay.desktopEvents(recordings, configuration: options.configuration)
        let forwarded: ((Int, [RawEvent]) -> Void)? = forwardPath == nil ? nil : { clones[$0] += $1 }
        announceDevices(recordings, configuration: options.configuration, printer: comparing ? nil : printer)
        if printsScene && !comparing { writer.write(line: Replay.scene(recordings, options: options)) }
        // With --explain the engine's explain line says what a forwarding verdict says: printed once.
        let verdictsExplained = options.explains && format == .text
        let notes: (Int, String) -> Void = { index, note in
            writeStandardError("\(recordings[index].source): warning: \(recordings[index].description.name): \(note)\n")
        }
        Replay.run(recordings, options: options, pace: pace, forwarded: forwarded, notes: notes) { output in
            if svgPath != nil { all.append(output) }
            if case .touch = output, !printsTouches { return }
            if verdictsExplained, case .forwarding = output { return }
            if !showsRoutine, case .explain(let e) = output, e.routine { return }
            if comparing { lines.append(output.jsonLine(windows: windows)) } else { printer.print(output) }
            if let bindings, case .gesture(let event) = output { bindings.handle(event, now: event.time.microseconds) }
        }
        if !comparing { printer.finish() }
        var status: Int32 = 0
        if let svgPath {
            let placements = Replay.placements(recordings, options: options)
            let layouts = Replay.surfaceLayouts(recordings, options: options)
            let devices = recordings.enumerated().map { i, recording in
                // The engine's layout: with a desktop, a touchscreen's output and its windows below
                // the config's own regions, as the scene's `surfaces` give them.
                ReplayPicture.Device(description: recording.description, source: recording.source,
                                     surface: placements[i].surface, layout: layouts[i], windows: windows)
            }
            let names = recordings.map { $0.source.split(separator: "/").last.map(String.init) ?? $0.source }
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            let picture = ReplayPicture(title: "Replay of " + unique.joined(separator: ", "), configName: configName,
                                        devices: devices, outputs: all, origin: origin, forwarded: options.forwards,
                                        windows: windows)
            let svg = ReplaySVG.render(picture, explained: options.explains)
            if let error = Self.write(svg, to: svgPath) {
                writeStandardError("gestured: cannot write \(svgPath): \(error)\n")
                status = 2
            } else {
                let (touches, gestures) = (picture.tracks.count, picture.spans.count)
                writeStandardError("wrote \(svgPath): \(touches) touch\(touches == 1 ? "" : "es"), "
                                   + "\(gestures) gesture\(gestures == 1 ? "" : "s")\n")
            }
        }
        if let forwardPath {
            for (i, recording) in recordings.enumerated() {
                let path = Self.forwardPath(forwardPath, device: i, of: recordings.count)
                let text = EvemuWriter.header(recording.description, comments: [
                    "what the desktop gets of \(recording.source): gestured replay --forward"])
                    + EvemuWriter.events(clones[i])
                if let error = Self.write(text, to: path) {
                    writeStandardError("gestured: cannot write \(path): \(error)\n")
                    status = 2
                } else {
                    writeStandardError("wrote \(path): \(clones[i].count) events of \(recording.description.name)\n")
                }
            }
        }
        if let expectPath {
            let result = compare(lines, with: expectPath, origin: origin)
            if result != 0 { status = result }
        }
        return status
    }

    /// Says, per device, which `devices` rule opens it or that none does, as the daemon would decide
    /// for the device live: on stderr for a device not opened (none of its events is replayed), and
    /// in the text output for every device when the config has device rules.
    func announceDevices(_ recordings: [Recording], configuration: Configuration, printer: OutputPrinter?) {
        let rules = !configuration.devices.include.isEmpty || !configuration.devices.ignore.isEmpty
        for (recording, decision) in zip(recordings, Replay.decisions(recordings, configuration: configuration)) {
            let text = Replay.decisionText(recording, decision, configuration: configuration)
            if !decision.selects {
                writeStandardError("\(recording.source): \(text); the daemon would not read it, so nothing of it is "
                                   + "replayed (no gesture, no binding)\n")
            }
            if (rules || !decision.selects) && format == .text { printer?.print(textNote: text) }
        }
    }

    private func compare(_ lines: [String], with path: String, origin: Timestamp) -> Int32 {
        if writesExpected {
            let text = lines.map { $0 + "\n" }.joined()
            if let error = Self.write(text, to: path) {
                writeStandardError("gestured: cannot write \(path): \(error)\n")
                return 2
            }
            writeStandardError("wrote \(path): \(lines.count) line\(lines.count == 1 ? "" : "s")\n")
            return 0
        }
        let expected: [String]
        if access(path, R_OK) != 0 {
            let reason = String(cString: strerror(errno))
            writeStandardError("\(path): cannot read the expected output: \(reason); create it with --write-expected\n")
            return 2
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            expected = GoldenComparison.lines(of: String(decoding: data, as: UTF8.self))
        } catch {
            writeStandardError("\(path): cannot read the expected output (\(error)); create it with --write-expected\n")
            return 2
        }
        let comparison = GoldenComparison(expected: expected, actual: lines)
        writeStandardError(comparison.report(file: path, origin: origin) + "\n")
        if !comparison.isEqual {
            writeStandardError("to accept the replay's output as the new expectation, run the same command with --write-expected\n")
            return 1
        }
        return 0
    }

    /// The forwarded file of device `index`: `path` itself for one device, else `name.N.ext` (N from 1).
    static func forwardPath(_ path: String, device index: Int, of count: Int) -> String {
        guard count > 1 else { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot > slash {
            return String(path[..<dot]) + ".\(index + 1)" + String(path[dot...])
        }
        return path + ".\(index + 1)"
    }

    /// Writes a whole file; the error's description, or nil.
    static func write(_ text: String, to path: String) -> String? {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
