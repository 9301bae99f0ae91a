import GestureCore

/// A JSON value with its object keys in the order they came (the daemon's replies list what
/// matters first).
public indirect enum JSONValue: Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: return false
        }
    }

    /// Parses one JSON text; nil when it is not JSON.
    public init?(parsing text: String) {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        guard parser.index == parser.scalars.count else { return nil }
        self = value
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// A short text for people: strings bare, numbers as the protocol writes them, lists joined
    /// with ", ", objects as "key value" pairs.
    public var text: String {
        switch self {
        case .null: return "-"
        case .bool(let b): return b ? "yes" : "no"
        case .number(let n): return JSONLine.number(n)
        case .string(let s): return s
        case .array(let items): return items.isEmpty ? "none" : items.map(\.text).joined(separator: ", ")
        case .object(let fields): return fields.map { "\($0.0) \($0.1.text)" }.joined(separator: ", ")
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func skipSpace() {
            while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        }

        /// After a member or an element: true past a ',' (another follows), false past `close`; nil on
        /// anything else.
        mutating func another(closedBy close: Unicode.Scalar) -> Bool? {
            skipSpace()
            guard index < scalars.count, scalars[index] == "," || scalars[index] == close else { return nil }
            index += 1
            return scalars[index - 1] == ","
        }

        mutating func value() -> JSONValue? {
            skipSpace()
            guard index < scalars.count else { return nil }
            switch scalars[index] {
            case "{":
                index += 1
                var fields: [(String, JSONValue)] = []
                skipSpace()
                if index < scalars.count, scalars[index] == "}" { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard case .string(let key)? = value() else { return nil }
                    skipSpace()
                    guard index < scalars.count, scalars[index] == ":" else { return nil }
                    index += 1
                    guard let item = value() else { return nil }
                    fields.append((key, item))
                    guard let more = another(closedBy: "}") else { return nil }
                    if !more { return .object(fields) }
                }
            case "[":
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < scalars.count, scalars[index] == "]" { index += 1; return .array(items) }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    guard let more = another(closedBy: "]") else { return nil }
                    if !more { return .array(items) }
                }
            case "\"":
                index += 1
                var out = String.UnicodeScalarView()
                while index < scalars.count {
                    let c = scalars[index]
                    index += 1
                    if c == "\"" { return .string(String(out)) }
                    if c != "\\" { out.append(c); continue }
                    guard index < scalars.count else { return nil }
                    let e = scalars[index]
                    index += 1
                    switch e {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{c}")
                    case "u":
                        guard index + 4 <= scalars.count,
                              let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16)
                        else { return nil }
                        index += 4
                        out.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: out.append(e)
                    }
                }
                return nil
            case "t": return literal("true", .bool(true))
            case "f": return literal("false", .bool(false))
            case "n": return literal("null", .null)
            default:
                let start = index
                while index < scalars.count, "+-0123456789.eE".unicodeScalars.contains(scalars[index]) { index += 1 }
                return Double(String(String.UnicodeScalarView(scalars[start..<index]))).map(JSONValue.number)
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let w = Array(word.unicodeScalars)
            guard index + w.count <= scalars.count, Array(scalars[index..<index + w.count]) == w else { return nil }
            index += w.count
            return value
        }
    }
}

/// The replies of `gesturectl status`, `devices`, `hit-test` and `rotate` as text for a person at
/// a terminal (piped, or with `--format json`, they stay the protocol's JSON line).
public enum ResponseText {
    /// Lines for one response line; the line itself when it is not a JSON object.
    public static func lines(_ line: String) -> [String] {
        guard let value = JSONValue(parsing: line), case .object(let fields) = value else { return [line] }
        let body = fields.filter { !["type", "request", "ok", "id"].contains($0.0) }
        switch value["request"]?.stringValue {
        case "devices": return devices(value["devices"]?.arrayValue ?? [])
        case "hit-test": return hitTest(value)
        case "set-surface": return surfaceChange(value)
        case "status":
            return aligned(body.map { ($0, forPeople($0, $1)) })
        default: return aligned(body)
        }
    }

    /// A reply's value as a person reads it: durations (`uptime`, a desktop's `age`) with their unit,
    /// a `surface` as `106.7 × 60`, the same inside an object (`desktop` of status).
    static func forPeople(_ key: String, _ value: JSONValue) -> JSONValue {
        switch (key, value) {
        case ("uptime", .number(let seconds)), ("age", .number(let seconds)):
            return .string(duration(seconds))
        case ("surface", .object):
            guard case .number(let x)? = value["x"], case .number(let y)? = value["y"] else { return value }
            let tenth = { (v: Double) in JSONLine.number((v * 10).rounded() / 10) }
            return .string("\(tenth(x)) × \(tenth(y))")
        case (_, .object(let fields)):
            return .object(fields.map { ($0, forPeople($0, $1)) })
        default:
            return value
        }
    }

    /// `5.5 s`, `12 min 5 s`, `3 h 12 min`, `2 d 3 h`: a duration as a person reads it.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return JSONLine.number(seconds) + " s" }
        if seconds < 60 { return JSONLine.number((seconds * 10).rounded() / 10) + " s" }
        let whole = Int(seconds)
        let (days, hours, minutes) = (whole / 86_400, whole / 3600 % 24, whole / 60 % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        return "\(minutes) min \(whole % 60) s"
    }

    /// What `rotate` changed: the rotation and size set, for which devices, and that a change for
    /// every touchscreen also holds for those plugged in later (none may be open now).
    static func surfaceChange(_ value: JSONValue) -> [String] {
        var change: [String] = []
        if let rotation = value["rotation"]?.text { change.append("rotation \(rotation)") }
        if let size = value["size"]?.arrayValue, size.count == 2 { change.append("size \(size[0].text) × \(size[1].text)") }
        let what = change.isEmpty ? "surface changed" : change.joined(separator: ", ") + " set"
        let names = value["devices"]?.arrayValue?.map(\.text) ?? []
        if let overridden = value["overridden"]?.arrayValue, !overridden.isEmpty {
            // A bridge is connected: the touchscreens on its outputs follow the compositor's transform.
            let who = overridden.map { o in
                "\(o["device"]?.text ?? "?") follows output \(o["output"]?.text ?? "?") (transform \(o["transform"]?.text ?? "?"))"
            }
            let what = change.isEmpty ? "the change" : change.joined(separator: ", ")
            return ["\(what) not applied, overridden while the desktop bridge is connected: " + who.joined(separator: "; ")
                    + "; it applies when the bridge goes"]
        }
        if value["every"] == .bool(true) {
            let now = names.isEmpty ? "none is open now" : "now: " + names.joined(separator: ", ")
            return ["\(what) for every touchscreen, also those plugged in later (\(now)), from its next touch"]
        }
        return ["\(what) for \(names.isEmpty ? "no device" : names.joined(separator: ", ")), from its next touch"]
    }

    /// "key  value" lines, keys padded to the longest.
    static func aligned(_ fields: [(String, JSONValue)]) -> [String] {
        let width = fields.map { $0.0.count }.max() ?? 0
        return fields.map { key, value in key + String(repeating: " ", count: width - key.count + 2) + value.text }
    }

    static func devices(_ list: [JSONValue]) -> [String] {
        guard !list.isEmpty else { return ["no device open"] }
        return list.flatMap { device -> [String] in
            let id = device["id"]?.text ?? "?"
            let name = device["name"]?.text ?? "?"
            let kind = device["kind"]?.text ?? "?"
            var head = "\(id)  \(name)  (\(kind))"
            if device["injected"] == .bool(true) { head += "  injected" }
            guard case .object(let fields) = device else { return [head] }
            let rest = fields.filter { !["id", "name", "kind", "injected"].contains($0.0) }.map { ($0, forPeople($0, $1)) }
            return [head] + aligned(rest).map { "    " + $0 }
        }
    }

    static func hitTest(_ value: JSONValue) -> [String] {
        // Windows named as people read them (`window:12 (foot "~")`) where the reply gives the names.
        let chain = (value["names"] ?? value["chain"])?.arrayValue?.map(\.text) ?? []
        var fields: [(String, JSONValue)] = [
            ("chain", .string(chain.isEmpty ? "no region (outside every frame)" : chain.joined(separator: " ← ")))]
        if let device = value["device"] { fields.append(("device", device)) }
        if let output = value["output"] { fields.append(("output", output)) }
        if let surface = value["surface"], let x = surface["x"]?.text, let y = surface["y"]?.text {
            fields.append(("surface", .string("\(x) × \(y)")))
        }
        return aligned(fields)
    }
}
