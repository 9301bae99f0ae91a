/// A small JSON object writer with a fixed key order, so output lines are byte-for-byte stable
/// (expected-output files, diffs between replay and live). Numbers are printed with up to 6 decimals.
public struct JSONLine: Sendable {
    public private(set) var text: String = "{"
    private var first = true
    public init() {}

    private mutating func key(_ k: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += k
        text += "\":"
    }
    public mutating func add(_ k: String, _ v: String) {
        key(k)
        JSONLine.appendQuoted(v, to: &text)
    }
    public mutating func add(_ k: String, _ v: Int) {
        key(k)
        text += String(v)
    }
    public mutating func add(_ k: String, _ v: UInt64) {
        key(k)
        text += String(v)
    }
    public mutating func add(_ k: String, _ v: Bool) {
        key(k)
        text += v ? "true" : "false"
    }
    public mutating func add(_ k: String, _ v: Double) {
        key(k)
        text += JSONLine.number(v)
    }
    public mutating func add(_ k: String, _ p: Point) {
        key(k)
        text += "{\"x\":"
        text += JSONLine.number(p.x)
        text += ",\"y\":"
        text += JSONLine.number(p.y)
        text += "}"
    }
    /// Adds pre-encoded JSON (an object or array) as is.
    public mutating func addRaw(_ k: String, _ json: String) {
        key(k)
        text += json
    }
    public var line: String { text + "}" }

    /// Finite numbers with at most 6 decimals and no trailing zeros; NaN/inf become null.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        let scaled = (v * 1_000_000).rounded()
        if scaled == 0 { return "0" }
        if abs(scaled) >= 9e15 { return String(v) }
        let negative = scaled < 0
        let magnitude = UInt64(abs(scaled))
        let whole = magnitude / 1_000_000
        var frac = magnitude % 1_000_000
        var out = negative ? "-" : ""
        out += String(whole)
        if frac != 0 {
            var digits = 6
            while frac % 10 == 0 {
                frac /= 10
                digits -= 1
            }
            let s = String(frac)
            out += "."
            out += String(repeating: "0", count: digits - s.count)
            out += s
        }
        return out
    }

    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
    public static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }
}

extension GestureEvent {
    /// The gesture line (docs/protocol.md).
    public var jsonLine: String {
        var j = JSONLine()
        j.add("type", "gesture")
        j.add("gesture", gesture)
        j.add("kind", kind.rawValue)
        j.add("state", state.rawValue)
        j.add("time", time.seconds)
        j.add("device", device)
        j.add("region", region)
        j.add("fingers", fingers)
        if let taps { j.add("taps", taps) }
        if let direction { j.add("direction", direction.rawValue) }
        if let location { j.add("location", location) }
        if let translation { j.add("translation", translation) }
        if let velocity { j.add("velocity", velocity) }
        if let scale { j.add("scale", scale) }
        if let rotation { j.add("rotation", rotation) }
        if let scalarVelocity { j.add(kind == .pinch ? "scaleVelocity" : "rotationVelocity", scalarVelocity) }
        return j.line
    }
}

extension TouchEvent {
    public var jsonLine: String {
        var j = JSONLine()
        j.add("type", "touch")
        j.add("phase", phase.rawValue)
        j.add("id", id.rawValue)
        j.add("location", location)
        if let region { j.add("region", region) }
        if let responder { j.add("responder", responder) }
        j.add("tapCount", tapCount)
        j.add("time", time.seconds)
        j.add("device", device)
        return j.line
    }
}

extension ExplainEvent {
    public var jsonLine: String {
        var j = JSONLine()
        j.add("type", "explain")
        j.add("gesture", gesture)
        j.add("region", region)
        j.add("from", from.rawValue)
        j.add("to", to.rawValue)
        j.add("time", time.seconds)
        j.add("reason", reason)
        return j.line
    }
}

extension EngineOutput {
    public var jsonLine: String {
        switch self {
        case .gesture(let g): g.jsonLine
        case .touch(let t): t.jsonLine
        case .explain(let e): e.jsonLine
        }
    }
}
