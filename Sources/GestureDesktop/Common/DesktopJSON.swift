/// A JSON value read from a compositor's reply. The parser works on bytes, nests at most
/// `maximumDepth` deep and reports where the text stops being JSON, so garbage or a truncated reply
/// is an error to log, never a crash.
public indirect enum DesktopJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DesktopJSON])
    /// Keys in the order they came.
    case object([(String, DesktopJSON)])

    public static func == (a: DesktopJSON, b: DesktopJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }

    /// Deeper nesting than any compositor's reply (sway's tree is about ten levels deep).
    public static let maximumDepth = 128

    public struct SyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
        public var offset: Int
        public var expected: String
        public var description: String { "not JSON at byte \(offset): expected \(expected)" }
    }

    public init(parsing bytes: some Collection<UInt8>) throws(SyntaxError) {
        let array = Array(bytes)
        var parser = Parser(bytes: array)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == array.count else { throw SyntaxError(offset: parser.index, expected: "the end of the text") }
        self = value
    }

    public init(parsing text: String) throws(SyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    public subscript(key: String) -> DesktopJSON? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var number: Double? { if case .number(let n) = self, n.isFinite { n } else { nil } }
    public var int: Int? { number.flatMap { abs($0) < 9e15 ? Int($0) : nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [DesktopJSON]? { if case .array(let a) = self { a } else { nil } }
    public var fields: [(String, DesktopJSON)]? { if case .object(let f) = self { f } else { nil } }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        func fail(_ expected: String) -> SyntaxError { SyntaxError(offset: index, expected: expected) }

        /// After a member or an element: true past a ',' (another follows), false past the `close`
        /// that ends the object or array; anything else is an error.
        mutating func another(closedBy close: UInt8) throws(SyntaxError) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == close else {
                throw fail(close == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'")
            }
            index += 1
            return bytes[index - 1] == UInt8(ascii: ",")
        }

        mutating func value(depth: Int) throws(SyntaxError) -> DesktopJSON {
            skipSpace()
            guard index < bytes.count else { throw fail("a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < DesktopJSON.maximumDepth else { throw fail("at most \(DesktopJSON.maximumDepth) levels of nesting") }
                index += 1
                var fields: [(String, DesktopJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("a key") }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':'") }
                    index += 1
                    fields.append((key, try value(depth: depth + 1)))
                    guard try another(closedBy: UInt8(ascii: "}")) else { return .object(fields) }
                }
            case UInt8(ascii: "["):
                guard depth < DesktopJSON.maximumDepth else { throw fail("at most \(DesktopJSON.maximumDepth) levels of nesting") }
                index += 1
                var items: [DesktopJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    guard try another(closedBy: UInt8(ascii: "]")) else { return .array(items) }
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try word("true", .bool(true))
            case UInt8(ascii: "f"): return try word("false", .bool(false))
            case UInt8(ascii: "n"): return try word("null", .null)
            default:
                return try number()
            }
        }

        mutating func word(_ text: String, _ result: DesktopJSON) throws(SyntaxError) -> DesktopJSON {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.count,
                  bytes[index..<index + expected.count].elementsEqual(expected) else { throw fail(text) }
            index += expected.count
            return result
        }

        mutating func number() throws(SyntaxError) -> DesktopJSON {
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start, index - start <= 64,
                  let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                index = start
                throw fail("a value")
            }
            return .number(value)
        }

        static func isNumberByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        }

        /// A string starting at the opening quote.
        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if c != UInt8(ascii: "\\") { out.append(c); continue }
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8))
                default: out.append(e)
                }
            }
            throw fail("the closing '\"' of a string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count,
                  let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw fail("four hex digits after \\u")
            }
            index += 4
            return code
        }
    }
}
