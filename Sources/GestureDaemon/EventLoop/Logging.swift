#if canImport(Glibc)
import Glibc
#endif
import GesturePosix
import Logging

/// swift-log handler writing one line per message to stderr. Under systemd (`JOURNAL_STREAM` set)
/// each line starts with the sd-daemon `<N>` priority prefix and carries no timestamp (the journal
/// adds its own); otherwise lines start with an ISO-like UTC time and the level.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let journal: Bool

    public init(label: String, level: Logger.Level = .info, journal: Bool = getenv("JOURNAL_STREAM") != nil) {
        self.label = label
        self.logLevel = level
        self.journal = journal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Installs the handler for the whole process (call once, from main).
    public static func bootstrap(level: Logger.Level = .info) {
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
    }

    public func log(event: LogEvent) {
        var line = ""
        if journal {
            line += "<\(JournalLogHandler.priority(event.level))>"
        } else {
            line += JournalLogHandler.timestamp() + " " + event.level.rawValue.uppercased() + " "
        }
        line += event.message.description
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        for key in all.keys.sorted() {
            line += " \(key)=\(JournalLogHandler.quote("\(all[key]!)"))"
        }
        if let error = event.error { line += " error=\(JournalLogHandler.quote("\(error)"))" }
        line += "\n"
        writeStandardError(line)
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// A metadata value as is when it is one plain word, else quoted with `"`, `\`, newlines and
    /// every other control character (C0, DEL, C1, U+2028 / U+2029: device names and client text
    /// can hold them) escaped, so one message stays one log line and writes nothing to a terminal.
    static func quote(_ value: String) -> String {
        func isControl(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
        if !value.isEmpty && !value.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || isControl($0) }) {
            return value
        }
        var out = "\""
        for s in value.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if isControl(s) {
                    out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    static func timestamp() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var seconds = ts.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ n: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(Int32(ts.tv_nsec / 1_000_000), 3))Z"
    }
}
