/// Checks that a request line is exactly one JSON text as RFC 8259 defines it. Foundation's
/// decoder is lenient on purpose (it takes `{"a":1,}`), and the protocol promises strict JSON, so
/// every request passes here before it is decoded. Reports the first violation with its byte
/// offset; says nothing about meaning (keys, types), which the decoder checks.
enum StrictJSONSyntax {
    struct Violation: Error, Equatable, CustomStringConvertible {
        /// 0-based byte offset in the line.
        var offset: Int
        var expected: String
        var description: String { "expected \(expected) at byte \(offset + 1)" }
    }

    /// Nesting beyond this is refused (a line of 64 KiB of `[` must not exhaust the stack).
    static let maximumDepth = 64

    static func check(_ text: String) -> Violation? {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { check(bytes: UnsafeRawBufferPointer($0)) }
            ?? Array(utf8).withUnsafeBytes { check(bytes: $0) }
    }

    static func check(bytes: UnsafeRawBufferPointer) -> Violation? {
        var parser = Parser(bytes: bytes)
        do throws(Violation) {
            parser.skipSpace()
            try parser.value(depth: 0)
            parser.skipSpace()
            if parser.position < bytes.count { throw Violation(offset: parser.position, expected: "the end of the line after one JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { position += 1 }
        }

        func fail(_ expected: String) -> Violation { Violation(offset: position, expected: expected) }

        mutating func expect(_ byte: UInt8, _ what: String) throws(Violation) {
            guard current == byte else { throw fail(what) }
            position += 1
        }

        mutating func value(depth: Int) throws(Violation) {
            guard depth < StrictJSONSyntax.maximumDepth else { throw fail("at most \(StrictJSONSyntax.maximumDepth) levels of nesting") }
            // 0 (end of line) matches no value.
            switch current ?? 0 {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw fail("a JSON value")
            }
        }

        mutating func object(depth: Int) throws(Violation) {
            guard !opensEmpty(closedBy: UInt8(ascii: "}")) else { return }
            while true {
                guard current == UInt8(ascii: "\"") else { throw fail("a quoted key (no trailing comma)") }
                try string()
                skipSpace()
                try expect(UInt8(ascii: ":"), "':' after a key")
                skipSpace()
                try value(depth: depth + 1)
                guard try another(closedBy: UInt8(ascii: "}")) else { return }
            }
        }

        /// Steps past an object's or array's opening; true when `close` follows at once (empty, and
        /// stepped past too).
        mutating func opensEmpty(closedBy close: UInt8) -> Bool {
            position += 1
            skipSpace()
            guard current == close else { return false }
            position += 1
            return true
        }

        /// After a member or an element: true on a ',' (another follows), false on the `close`
        /// that ends the object or array; anything else is a violation.
        mutating func another(closedBy close: UInt8) throws(Violation) -> Bool {
            skipSpace()
            if current == UInt8(ascii: ",") {
                position += 1
                skipSpace()
                return true
            }
            try expect(close, close == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'")
            return false
        }

        mutating func array(depth: Int) throws(Violation) {
            guard !opensEmpty(closedBy: UInt8(ascii: "]")) else { return }
            while true {
                if current == UInt8(ascii: "]") { throw fail("a value (no trailing comma)") }
                try value(depth: depth + 1)
                guard try another(closedBy: UInt8(ascii: "]")) else { return }
            }
        }

        mutating func literal(_ word: StaticString) throws(Violation) {
            let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for byte in expected {
                guard current == byte else { throw fail("'\(word)'") }
                position += 1
            }
        }

        mutating func digits() -> Int {
            let start = position
            while let c = current, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { position += 1 }
            return position - start
        }

        mutating func number() throws(Violation) {
            if current == UInt8(ascii: "-") { position += 1 }
            if current == UInt8(ascii: "0") {
                position += 1
                if let c = current, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { throw fail("no leading zero") }
            } else if digits() == 0 {
                throw fail("a digit")
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw fail("a digit after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw fail("a digit in the exponent") }
            }
        }

        /// A string; the line is already valid UTF-8, so only escapes and raw control characters
        /// need checking.
        mutating func string() throws(Violation) {
            position += 1
            while let c = current {
                switch c {
                case UInt8(ascii: "\""):
                    position += 1
                    return
                case UInt8(ascii: "\\"):
                    position += 1
                    switch current {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        position += 1
                    case UInt8(ascii: "u"):
                        position += 1
                        for _ in 0..<4 {
                            guard let h = current, (h >= 0x30 && h <= 0x39) || (h | 0x20 >= 0x61 && h | 0x20 <= 0x66) else {
                                throw fail("four hex digits after \\u")
                            }
                            position += 1
                        }
                    default:
                        throw fail("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                    }
                case 0..<0x20:
                    throw fail("no raw control character in a string (escape it)")
                default:
                    position += 1
                }
            }
            throw fail("a closing '\"'")
        }
    }
}
