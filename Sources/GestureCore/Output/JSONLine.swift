/// A small JSON object writer with a fixed key order, so output lines are byte-for-byte stable
/// (expected-output files, diffs between replay and live). Numbers are printed with up to 6 decimals.
///
/// Every gesture line of the live daemon goes through here, so it writes UTF-8 straight into one
/// buffer: each `add` makes room once for the most it can write, then stores bytes, digits and
/// escapes through a pointer (no intermediate strings, no per-byte bounds or uniqueness checks).
public struct JSONLine: Sendable {
    private var storage: [UInt8]
    private var count = 1
    private var first = true

    public init() {
        storage = [UInt8](repeating: 0, count: 256)
        storage[0] = UInt8(ascii: "{")
    }

    /// The object so far, without its closing brace.
    public var text: String { String(decoding: storage[0..<count], as: UTF8.self) }

    /// The finished object.
    public var line: String {
        String(unsafeUninitializedCapacity: count + 1) { buffer in
            _ = buffer.initialize(fromContentsOf: storage[0..<count])
            buffer[count] = UInt8(ascii: "}")
            return count + 1
        }
    }

    /// Lets `body` write at most `maximum` bytes at the end; it returns how many it wrote.
    private mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximum > storage.count {
            storage.append(contentsOf: repeatElement(0, count: max(maximum, storage.count)))
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    /// `,"key":` (no comma before the first key), then at most `maximum` bytes of value from `value`.
    private mutating func field(_ k: String, valueAtMost maximum: Int, _ value: (UnsafeMutablePointer<UInt8>) -> Int) {
        var key = k
        let comma = first ? 0 : 1
        first = false
        key.withUTF8 { name in
            write(atMost: comma + name.count + 3 + maximum) { p in
                if comma == 1 { p[0] = UInt8(ascii: ",") }
                var n = comma
                n += JSONLine.put(quoted: name, p + n)
                p[n] = UInt8(ascii: ":")
                n += 1
                return n + value(p + n)
            }
        }
    }

    public mutating func add(_ k: String, _ v: String) {
        var v = v
        v.withUTF8 { utf8 in field(k, valueAtMost: 2 + 6 * utf8.count) { JSONLine.put(quoted: utf8, $0) } }
    }
    public mutating func add(_ k: String, _ v: Int) {
        field(k, valueAtMost: 21) { p in
            guard v < 0 else { return JSONLine.put(digits: UInt64(v), p) }
            p[0] = UInt8(ascii: "-")
            return 1 + JSONLine.put(digits: UInt64(v.magnitude), p + 1)
        }
    }
    public mutating func add(_ k: String, _ v: UInt64) {
        field(k, valueAtMost: 20) { JSONLine.put(digits: v, $0) }
    }
    public mutating func add(_ k: String, _ v: Bool) {
        field(k, valueAtMost: 5) { JSONLine.put(v ? "true" : "false", $0) }
    }
    public mutating func add(_ k: String, _ v: Double) {
        field(k, valueAtMost: JSONLine.numberBytes) { JSONLine.put(number: v, $0) }
    }
    public mutating func add(_ k: String, _ p: Point) {
        field(k, valueAtMost: JSONLine.pointBytes) { JSONLine.put(point: p, $0) }
    }
    /// Adds pre-encoded JSON (an object or array) as is.
    public mutating func addRaw(_ k: String, _ json: String) {
        var json = json
        json.withUTF8 { raw in
            field(k, valueAtMost: raw.count) { p in
                p.update(from: raw.baseAddress!, count: raw.count)
                return raw.count
            }
        }
    }

    // MARK: Values

    /// The most a number takes: a sign, 16 whole digits, a point and 6 decimals, or `String(v)` of
    /// a huge one.
    static let numberBytes = 32

    /// Finite numbers with at most 6 decimals and no trailing zeros; NaN/inf become null.
    public static func number(_ v: Double) -> String {
        String(unsafeUninitializedCapacity: numberBytes) { put(number: v, $0.baseAddress!) }
    }

    static func put(number v: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        guard v.isFinite else { return put("null", p) }
        let scaled = (v * 1_000_000).rounded()
        if scaled == 0 {
            p[0] = UInt8(ascii: "0")
            return 1
        }
        if abs(scaled) >= 9e15 {
            var text = String(v)
            return text.withUTF8 { utf8 in
                let n = min(utf8.count, numberBytes)
                p.update(from: utf8.baseAddress!, count: n)
                return n
            }
        }
        var n = 0
        if scaled < 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        let magnitude = UInt64(abs(scaled))
        n += put(digits: magnitude / 1_000_000, p + n)
        var frac = magnitude % 1_000_000
        guard frac != 0 else { return n }
        var digits = 6
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        p[n] = UInt8(ascii: ".")
        for i in stride(from: digits, to: 0, by: -1) {
            p[n + i] = UInt8(ascii: "0") + UInt8(frac % 10)
            frac /= 10
        }
        return n + 1 + digits
    }

    /// The most a point takes: `{"x":…,"y":…}`.
    static let pointBytes = 11 + 2 * numberBytes

    static func put(point: Point, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = put("{\"x\":", out)
        n += put(number: point.x, out + n)
        n += put(",\"y\":", out + n)
        n += put(number: point.y, out + n)
        out[n] = UInt8(ascii: "}")
        return n + 1
    }

    /// Decimal digits of `v` (at most 20).
    static func put(digits v: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1
        var rest = v / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        var value = v
        for i in stride(from: length - 1, through: 0, by: -1) {
            p[i] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        return length
    }

    private static func put(_ s: StaticString, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        p.update(from: s.utf8Start, count: s.utf8CodeUnitCount)
        return s.utf8CodeUnitCount
    }

    /// `utf8` as a JSON string: quotes, backslashes and control characters escaped (at most
    /// 2 + 6 × its length bytes).
    static func put(quoted utf8: UnsafeBufferPointer<UInt8>, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\"")
        // Keys, ids, names and states rarely need escaping: copy them whole when nothing may.
        // 0x7F is DEL; 0xC2 leads C1 controls (U+0080–U+009F); 0xE2 leads U+2028 / U+2029.
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            if let base = utf8.baseAddress { (p + 1).update(from: base, count: utf8.count) }
            p[utf8.count + 1] = UInt8(ascii: "\"")
            return utf8.count + 2
        }
        var n = 1
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                p[n] = UInt8(ascii: "\\")
                p[n + 1] = byte
                n += 2
            case UInt8(ascii: "\n"):
                n += put("\\n", p + n)
            case UInt8(ascii: "\r"):
                n += put("\\r", p + n)
            case UInt8(ascii: "\t"):
                n += put("\\t", p + n)
            case 0..<0x20, 0x7F:
                n += put(escapedScalar: UInt32(byte), p + n)
            case 0xC2 where i + 1 < utf8.count && (0x80...0x9F).contains(utf8[i + 1]):
                // C1 control characters.
                n += put(escapedScalar: UInt32(utf8[i + 1]), p + n)
                i += 1
            case 0xE2 where i + 2 < utf8.count && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                // U+2028 / U+2029, which JavaScript and some line readers take as line breaks:
                // escaped, so one line stays one line.
                n += put(escapedScalar: 0x2000 | UInt32(utf8[i + 2] - 0xA8 + 0x28), p + n)
                i += 2
            default:
                p[n] = byte
                n += 1
            }
            i += 1
        }
        p[n] = UInt8(ascii: "\"")
        return n + 1
    }

    /// `\uXXXX` for a scalar below U+10000 (six bytes).
    private static func put(escapedScalar value: UInt32, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\\")
        p[1] = UInt8(ascii: "u")
        for i in 0..<4 { p[2 + i] = hexDigit(UInt8((value >> (12 - 4 * UInt32(i))) & 0xF)) }
        return 6
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }

    /// `s` as a JSON string, appended to `out`.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += quoted(s)
    }

    public static func quoted(_ s: String) -> String {
        var s = s
        return s.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: 2 + 6 * utf8.count) { put(quoted: utf8, $0.baseAddress!) }
        }
    }
}

extension GestureEvent {
    /// The gesture line (docs/protocol.md).
    public var jsonLine: String { JSONObjectWriter.object(capacity: jsonCapacity, writeJSON) }
    /// The gesture line and a newline at the start of `buffer` (`EngineOutput.writeJSONLine`).
    func writeJSONLine(into buffer: inout [UInt8]) -> Int {
        JSONObjectWriter.write(capacity: jsonCapacity, into: &buffer, writeJSON)
    }

    private var jsonCapacity: Int {
        typealias W = JSONObjectWriter
        let strings = W.bound(gesture) + W.bound(device) + W.bound(region) + W.bound(kind.rawValue)
            + W.bound(state.rawValue) + W.bound(direction?.rawValue ?? "") + W.bound("gesture")
        return 16 * W.keyBytes + strings + 8 * JSONLine.numberBytes + 3 * JSONLine.pointBytes + 2
    }

    private func writeJSON(_ w: inout JSONObjectWriter) {
        w.add("type", "gesture")
        w.add("gesture", gesture)
        w.add("kind", kind.rawValue)
        w.add("state", state.rawValue)
        w.add("time", time.seconds)
        w.add("device", device)
        w.add("region", region)
        w.add("fingers", fingers)
        if let taps { w.add("taps", taps) }
        if let direction { w.add("direction", direction.rawValue) }
        if let location { w.add("location", location) }
        if let translation { w.add("translation", translation) }
        if let velocity { w.add("velocity", velocity) }
        if let scale { w.add("scale", scale) }
        if let rotation { w.add("rotation", rotation) }
        if let scalarVelocity {
            if kind == .pinch { w.add("scaleVelocity", scalarVelocity) } else { w.add("rotationVelocity", scalarVelocity) }
        }
    }
}

extension TouchEvent {
    public var jsonLine: String { JSONObjectWriter.object(capacity: jsonCapacity, writeJSON) }
    /// The touch line and a newline at the start of `buffer` (`EngineOutput.writeJSONLine`).
    func writeJSONLine(into buffer: inout [UInt8]) -> Int {
        JSONObjectWriter.write(capacity: jsonCapacity, into: &buffer, writeJSON)
    }

    private var jsonCapacity: Int {
        typealias W = JSONObjectWriter
        return 10 * W.keyBytes + W.bound("touch") + W.bound(phase.rawValue) + W.bound(region ?? "")
            + W.bound(responder ?? "") + W.bound(device) + 3 * JSONLine.numberBytes + JSONLine.pointBytes + 2
    }

    private func writeJSON(_ w: inout JSONObjectWriter) {
        w.add("type", "touch")
        w.add("phase", phase.rawValue)
        w.add("id", id.rawValue)
        w.add("location", location)
        if let region { w.add("region", region) }
        if let responder { w.add("responder", responder) }
        w.add("tapCount", tapCount)
        w.add("time", time.seconds)
        w.add("device", device)
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

    /// Writes `jsonLine` and a newline at the start of `buffer`, growing it when needed, and
    /// returns their length in bytes; what lies past them is stale. The live daemon's streamed lines
    /// go this way: one reused buffer, no string in between.
    public func writeJSONLine(into buffer: inout [UInt8]) -> Int {
        switch self {
        case .gesture(let g): return g.writeJSONLine(into: &buffer)
        case .touch(let t): return t.writeJSONLine(into: &buffer)
        case .explain(let e):
            // Rare (explain subscribers only): through the string.
            let utf8 = e.jsonLine.utf8
            if buffer.count < utf8.count + 1 { buffer.append(contentsOf: repeatElement(0, count: utf8.count + 1 - buffer.count)) }
            var n = 0
            for byte in utf8 {
                buffer[n] = byte
                n += 1
            }
            buffer[n] = UInt8(ascii: "\n")
            return n + 1
        }
    }
}
