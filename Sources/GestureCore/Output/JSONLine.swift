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
    /// Adds fields encoded elsewhere (`"key":value`, as `WindowName.field`) as they are.
    public mutating func addEncoded(_ fields: [UInt8]) {
        let comma = first ? 0 : 1
        first = false
        fields.withUnsafeBufferPointer { raw in
            write(atMost: comma + raw.count) { p in
                if comma == 1 { p[0] = UInt8(ascii: ",") }
                if raw.count > 0 { p.advanced(by: comma).update(from: raw.baseAddress!, count: raw.count) }
                return comma + raw.count
            }
        }
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

    /// Asked inline where it is used (a point's two numbers, a scale), so that a line's numbers take
    /// fewer calls (docs/performance.md, "Fewer calls per wake-up"; the release build still calls it for a point's
    /// second number); what is not finite or too large for six exact decimals goes out of line.
    @inline(__always)
    static func put(number v: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        let micro = v * 1_000_000
        // Below 9e15 (under 2^53) the rounding is done here, as `rounded()` does it (halves away from
        // zero), without its call into libm: the fraction `micro - whole` is exact in a double.
        // (NaN fails the comparison and goes out of line too.)
        guard abs(micro) < 9e15 else { return put(unusualNumber: v, p) }
        var scaled = Int64(micro)  // toward zero
        let fraction = micro - Double(scaled)
        if fraction >= 0.5 { scaled += 1 } else if fraction <= -0.5 { scaled -= 1 }
        if scaled == 0 {
            p[0] = UInt8(ascii: "0")
            return 1
        }
        var n = 0
        if scaled < 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        let magnitude = scaled.magnitude
        n += put(digits: magnitude / 1_000_000, p + n)
        let frac = magnitude % 1_000_000
        guard frac != 0 else { return n }
        // Six decimals two at a time, then the trailing zeros taken back (one is not zero).
        p[n] = UInt8(ascii: ".")
        putPair(frac / 10_000, p + n + 1)
        putPair(frac / 100 % 100, p + n + 3)
        putPair(frac % 100, p + n + 5)
        var digits = 6
        while p[n + digits] == UInt8(ascii: "0") { digits -= 1 }
        return n + 1 + digits
    }

    /// `put(number:)` for what is not finite (`null`) or too large for six exact decimals (as
    /// Swift prints it).
    @inline(never)
    private static func put(unusualNumber v: Double, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        guard v.isFinite else { return put("null", p) }
        var text = String(v)
        return text.withUTF8 { utf8 in
            let n = min(utf8.count, numberBytes)
            p.update(from: utf8.baseAddress!, count: n)
            return n
        }
    }

    /// The two decimal digits of `v` (below 100).
    private static func putPair(_ v: UInt64, _ p: UnsafeMutablePointer<UInt8>) {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let i = Int(truncatingIfNeeded: v) &* 2
        p[0] = pairs.utf8Start[i]
        p[1] = pairs.utf8Start[i &+ 1]
    }

    /// The most a point takes: `{"x":…,"y":…}`.
    static let pointBytes = 11 + 2 * numberBytes

    @inline(__always)
    static func put(point: Point, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = put("{\"x\":", out)
        n += put(number: point.x, out + n)
        n += put(",\"y\":", out + n)
        n += put(number: point.y, out + n)
        out[n] = UInt8(ascii: "}")
        return n + 1
    }

    /// Decimal digits of `v` (at most 20).
    @inline(__always)
    static func put(digits v: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1
        var bound: UInt64 = 10
        while v >= bound {
            length += 1
            if length == 20 { break }
            bound &*= 10
        }
        var value = v
        var end = length
        while value >= 100 {
            end -= 2
            putPair(value % 100, p + end)
            value /= 100
        }
        if value >= 10 {
            putPair(value, p)
        } else {
            p[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value)
        }
        return length
    }

    @inline(__always)
    static func put(_ s: StaticString, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        copy(s.utf8Start, count: s.utf8CodeUnitCount, to: p)
        return s.utf8CodeUnitCount
    }

    /// Copies a few bytes (a key, a run of encoded fields) eight at a time, inline: `update(from:count:)`
    /// calls `memcpy` through the PLT where the count is not a constant, two call sites more per copy
    /// on a path that runs once per wake-up (docs/performance.md, "Fewer calls per wake-up").
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        var i = 0
        while i + 8 <= count {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            destination[i] = source[i]
            i += 1
        }
    }

    /// `utf8` as a JSON string: quotes, backslashes and control characters escaped (at most
    /// 2 + 6 × its length bytes).
    static func put(quoted utf8: UnsafeBufferPointer<UInt8>, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\"")
        // Keys, ids, names and states are nearly always printable ASCII with no quote or backslash:
        // those bytes are copied as they are checked, eight at a time while whole words remain. The
        // first other byte (a control, DEL, a quote, a backslash or any non-ASCII byte) hands over
        // to the escaping loop below.
        var i = 0
        if let source = UnsafeRawPointer(utf8.baseAddress) {
            let target = UnsafeMutableRawPointer(p + 1)
            while i + 8 <= utf8.count {
                let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                guard !mayNeedEscaping(word) else { break }
                target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                i += 8
            }
        }
        while i < utf8.count {
            let byte = utf8[i]
            if byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            p[1 + i] = byte
            i += 1
        }
        var n = 1 + i
        // 0x7F is DEL; 0xC2 leads C1 controls (U+0080–U+009F); 0xE2 leads U+2028 / U+2029.
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

    /// Whether any of the eight bytes of `word` is below 0x20, 0x7F or above, a quote or a
    /// backslash (exact: no byte outside those makes it true; bit tricks on the whole word).
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        let from7F = ((word &+ ones) | word) & highs
        return below20 | from7F != 0 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
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
