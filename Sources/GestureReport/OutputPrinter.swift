#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix

/// How `gestured replay` and `gesturectl listen` print: JSON lines (the protocol, for programs) or
/// the aligned text format (for people).
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json

    /// Text when the file descriptor is a terminal, JSON otherwise (pipes, files, the journal).
    public static func automatic(fd: Int32 = 1) -> OutputFormat { isatty(fd) == 1 ? .text : .json }

    /// Columns of the text format: 80, or `$COLUMNS` when that is narrower (at least 60).
    public static var textWidth: Int {
        guard let value = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), value > 0 else { return 80 }
        return max(60, min(80, value))
    }
}

/// Writes outputs or protocol lines in one format, with the text format's header first and its
/// held-back runs at the end (`finish`).
public final class OutputPrinter {
    private let writer: LineWriter
    private let format: OutputFormat
    private var formatter: TextFormatter
    private var started = false
    private var printed = 0
    /// Print explain lines of routine (`"routine":true`: a touch received, a gesture moved, the
    /// sequence ended); false leaves them out, in both formats (`--verbose` sets it).
    public var showsRoutine = true
    /// The windows of the desktop the outputs come from (`gestured replay --desktop`): lines whose
    /// region is a window's name it.
    public var windows = WindowNames()

    /// - Parameter origin: time zero of the text format's ms column (nil: the first line's time).
    public init(format: OutputFormat, writer: LineWriter, origin: Timestamp? = nil) {
        self.format = format
        self.writer = writer
        formatter = TextFormatter(width: OutputFormat.textWidth, origin: origin)
    }

    public func print(_ output: EngineOutput) {
        if !showsRoutine, case .explain(let e) = output, e.routine { return }
        switch format {
        case .json: writer.write(line: output.jsonLine(windows: windows))
        case .text: text(formatter.format(.engine(output), window: windows.window(of: output)))
        }
    }

    public func print(jsonLine: String) {
        if !showsRoutine, Self.isRoutine(jsonLine) { return }
        switch format {
        case .json: writer.write(line: jsonLine)
        case .text: text(formatter.format(jsonLine: jsonLine))
        }
    }

    /// A line that is not the engine's (what a binding would do, `gestured replay --bindings`):
    /// `jsonLine` as JSON; as text, `text` after the time and `id` columns, wrapped.
    public func print(note text: String, id: String, time: Timestamp, jsonLine: String) {
        switch format {
        case .json: writer.write(line: jsonLine)
        case .text: self.text(formatter.note(text, id: id, time: time))
        }
    }

    /// A line for people only (`-- text` in the text format; nothing in JSON, whose lines are the protocol's).
    public func print(textNote text: String) {
        guard format == .text else { return }
        self.text(formatter.note(text))
    }

    /// An explain line marked `"routine":true` (the daemon writes its lines with the keys in one order).
    static func isRoutine(_ line: String) -> Bool {
        line.hasPrefix("{\"type\":\"explain\"") && line.hasSuffix(",\"routine\":true}")
    }

    /// Prints the text format's column titles now (a live listener sees them before any gesture).
    public func begin() { text([]) }

    /// Ends the stream: the text format's pending summaries; flushes.
    public func finish() {
        if format == .text {
            text(formatter.finish())
            if printed == 0 { text(["-- no gesture"]) }
        }
        writer.flush()
    }

    private func text(_ lines: [String]) {
        if !started && format == .text {
            started = true
            writer.write(line: formatter.header)
        }
        for line in lines { writer.write(line: line) }
        printed += lines.count
    }
}
