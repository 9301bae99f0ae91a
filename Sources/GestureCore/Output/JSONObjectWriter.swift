/// Writes one JSON object straight into a buffer sized in advance: the gesture and touch lines of
/// the live daemon are built with one allocation (the string's own) and no per-field bookkeeping.
/// Same formats as `JSONLine` (numbers with at most 6 decimals, the same escapes).
struct JSONObjectWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private var count = 1

    /// The most one string value can take, quotes included (every byte escaped as `\u00XX`).
    static func bound(_ s: String) -> Int { 2 + 6 * s.utf8.count }
    /// The most one key takes with its quotes, colon and comma.
    static let keyBytes = 24

    /// Builds `{...}` with `body`, which must write at most `capacity - 2` bytes.
    static func object(capacity: Int, _ body: (inout JSONObjectWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = JSONObjectWriter(base: buffer.baseAddress!)
            writer.base[0] = UInt8(ascii: "{")
            body(&writer)
            assert(writer.count < capacity, "JSON object of \(writer.count + 1) bytes in a buffer of \(capacity)")
            writer.base[writer.count] = UInt8(ascii: "}")
            return writer.count + 1
        }
    }

    /// Writes `{...}` built by `body` (which must write at most `capacity - 2` bytes) and a newline
    /// at the start of `buffer`, growing it when it is shorter than `capacity + 1`; returns the bytes
    /// written (what lies past them is stale). The daemon encodes every streamed line this way into
    /// one reused buffer, with no string and no allocation in between.
    static func write(capacity: Int, into buffer: inout [UInt8], _ body: (inout JSONObjectWriter) -> Void) -> Int {
        if buffer.count < capacity + 1 { buffer.append(contentsOf: repeatElement(0, count: capacity + 1 - buffer.count)) }
        return buffer.withUnsafeMutableBufferPointer { storage in
            var writer = JSONObjectWriter(base: storage.baseAddress!)
            writer.base[0] = UInt8(ascii: "{")
            body(&writer)
            assert(writer.count < capacity, "JSON object of \(writer.count + 1) bytes in a buffer of \(capacity)")
            writer.base[writer.count] = UInt8(ascii: "}")
            writer.base[writer.count + 1] = UInt8(ascii: "\n")
            return writer.count + 2
        }
    }

    /// The fields `body` writes (which must take at most `capacity - 2` bytes), encoded without
    /// braces into `bytes`, for `add(encoded:)` to copy into later objects.
    static func fields(capacity: Int, into bytes: inout [UInt8], _ body: (inout JSONObjectWriter) -> Void) {
        var scratch: [UInt8] = []
        let length = write(capacity: capacity, into: &scratch, body)
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: scratch[1..<(length - 2)])
    }

    private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Copies fields encoded by `fields(capacity:into:_:)` (a comma first unless they open the object).
    @inline(__always)
    mutating func add(encoded fields: [UInt8]) {
        if count > 1 {
            base[count] = UInt8(ascii: ",")
            count += 1
        }
        fields.withUnsafeBufferPointer { JSONLine.copy($0.baseAddress!, count: $0.count, to: base + count) }
        count += fields.count
    }

    @inline(__always)
    private mutating func key(_ k: StaticString) {
        if count > 1 {
            base[count] = UInt8(ascii: ",")
            count += 1
        }
        base[count] = UInt8(ascii: "\"")
        let length = JSONLine.put(k, base + count + 1)
        count += length + 1
        base[count] = UInt8(ascii: "\"")
        base[count + 1] = UInt8(ascii: ":")
        count += 2
    }

    mutating func add(_ k: StaticString, _ v: String) {
        key(k)
        let at = base + count
        // In place, without copying the string (a copy is a retain and a release per field).
        count += v.utf8.withContiguousStorageIfAvailable { JSONLine.put(quoted: $0, at) }
            ?? { var copy = v; return copy.withUTF8 { JSONLine.put(quoted: $0, at) } }()
    }
    mutating func add(_ k: StaticString, _ v: Int) {
        key(k)
        if v < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        count += JSONLine.put(digits: UInt64(v.magnitude), base + count)
    }
    mutating func add(_ k: StaticString, _ v: UInt64) {
        key(k)
        count += JSONLine.put(digits: v, base + count)
    }
    mutating func add(_ k: StaticString, _ v: Double) {
        key(k)
        count += JSONLine.put(number: v, base + count)
    }
    /// An array of strings (each needs at most `bound` bytes, plus a comma).
    mutating func add(_ k: StaticString, _ values: [String]) {
        key(k)
        base[count] = UInt8(ascii: "[")
        count += 1
        for (i, v) in values.enumerated() {
            if i > 0 {
                base[count] = UInt8(ascii: ",")
                count += 1
            }
            let at = base + count
            count += v.utf8.withContiguousStorageIfAvailable { JSONLine.put(quoted: $0, at) }
                ?? { var copy = v; return copy.withUTF8 { JSONLine.put(quoted: $0, at) } }()
        }
        base[count] = UInt8(ascii: "]")
        count += 1
    }
    mutating func add(_ k: StaticString, _ p: Point) {
        key(k)
        count += JSONLine.put(point: p, base + count)
    }
}
