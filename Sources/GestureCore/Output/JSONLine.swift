/// A small JSON object writer with a fixed key order, so output lines are byte-for-byte stable
/// (expected-output files, diffs between replay and live). Numbers are printed with up to 6 decimals.
///
/// It writes UTF-8 bytes into one buffer (digits and escapes included, no intermediate strings):
/// every gesture line of the live daemon goes through here.
public struct JSONLine: Sendable {
    private var bytes: [UInt8]
    private var first = true

    public init() {
        bytes = []
        bytes.reserveCapacity(320)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The object so far, without its closing brace.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func key(_ k: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        JSONLine.appendUTF8(k, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `s`'s UTF-8 in one copy where the string's storage allows it.
    private static func appendUTF8(_ s: String, to out: inout [UInt8]) {
        if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: s.utf8)
        }
    }

    public mutating func add(_ k: String, _ v: String) {
        key(k)
        JSONLine.appendQuoted(v, to: &bytes)
    }
    public mutating func add(_ k: String, _ v: Int) {
        key(k)
        JSONLine.appendInteger(v, to: &bytes)
    }
    public mutating func add(_ k: String, _ v: UInt64) {
        key(k)
        JSONLine.appendDigits(v, to: &bytes)
    }
    public mutating func add(_ k: String, _ v: Bool) {
        key(k)
        JSONLine.append(v ? "true" : "false", to: &bytes)
    }
    public mutating func add(_ k: String, _ v: Double) {
        key(k)
        JSONLine.appendNumber(v, to: &bytes)
    }
    public mutating func add(_ k: String, _ p: Point) {
        key(k)
        JSONLine.append("{\"x\":", to: &bytes)
        JSONLine.appendNumber(p.x, to: &bytes)
        JSONLine.append(",\"y\":", to: &bytes)
        JSONLine.appendNumber(p.y, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
    /// Adds pre-encoded JSON (an object or array) as is.
    public mutating func addRaw(_ k: String, _ json: String) {
        key(k)
        JSONLine.appendUTF8(json, to: &bytes)
    }

    /// The finished object.
    public var line: String {
        String(unsafeUninitializedCapacity: bytes.count + 1) { buffer in
            _ = buffer.initialize(fromContentsOf: bytes)
            buffer[bytes.count] = UInt8(ascii: "}")
            return bytes.count + 1
        }
    }

    /// Finite numbers with at most 6 decimals and no trailing zeros; NaN/inf become null.
    public static func number(_ v: Double) -> String {
        var out: [UInt8] = []
        appendNumber(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendNumber(_ v: Double, to out: inout [UInt8]) {
        guard v.isFinite else { return append("null", to: &out) }
        let scaled = (v * 1_000_000).rounded()
        if scaled == 0 { return out.append(UInt8(ascii: "0")) }
        if abs(scaled) >= 9e15 { return out.append(contentsOf: String(v).utf8) }
        if scaled < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = UInt64(abs(scaled))
        appendDigits(magnitude / 1_000_000, to: &out)
        var frac = magnitude % 1_000_000
        guard frac != 0 else { return }
        var digits = 6
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        out.append(UInt8(ascii: "."))
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(frac / divisor % 10))
            divisor /= 10
        }
    }

    static func appendInteger(_ v: Int, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(v.magnitude.toUInt64, to: &out)
    }

    static func appendDigits(_ v: UInt64, to out: inout [UInt8]) {
        var divisor: UInt64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
            divisor /= 10
        }
    }

    private static func append(_ s: StaticString, to out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `s` as a JSON string: quotes, backslashes and control characters escaped.
    public static func appendQuoted(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendQuoted(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Ids, names and states rarely need escaping: copy them whole when nothing does.
        let copied = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"", to: &out)
            case UInt8(ascii: "\\"): append("\\\\", to: &out)
            case UInt8(ascii: "\n"): append("\\n", to: &out)
            case UInt8(ascii: "\r"): append("\\r", to: &out)
            case UInt8(ascii: "\t"): append("\\t", to: &out)
            case 0..<0x20:
                append("\\u00", to: &out)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }

    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}

extension GestureEvent {
    /// The SPEC §8 line.
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
