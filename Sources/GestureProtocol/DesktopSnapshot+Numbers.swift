extension DesktopSnapshot {
    /// What `checkNumbers` found.
    enum NumberCheck: Equatable {
        /// The line to decode: the one given, with any number too small for a Double (1e-400) written as 0.
        case fine(String)
        /// "path: message" for the first number its field cannot hold.
        case problem(String)
    }

    /// The whole-number fields of the request and what each holds: `snapshot` a UInt32, the rest an Int.
    static let wholeNumberFields: [String: (lowest: Int64, highest: Int64)] = [
        "version": (Int64.min, Int64.max), "snapshot": (0, Int64(UInt32.max)), "part": (Int64.min, Int64.max),
        "parts": (Int64.min, Int64.max), "pid": (Int64.min, Int64.max), "stack": (Int64.min, Int64.max),
    ]

    /// Foundation's decoder refuses a whole line, naming no field, for a number its target type
    /// cannot hold (1e400, a part of 1.5, a pid beyond 64 bits) and for one too small for a Double
    /// (1e-400, a valid JSON number that reads as 0). This walks the line's numbers with their JSON
    /// paths first: the first a field cannot hold is a problem named by its path; the too small
    /// ones are written as 0. Text that is not JSON is left to the decoder to refuse.
    static func checkNumbers(in line: String) -> NumberCheck {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        var stack: [Frame] = []
        let bytes = Array(line.utf8)
        var zeroed: [Range<Int>] = []
        var i = 0
        func here() -> String {
            var out = ""
            for frame in stack {
                switch frame {
                case .object(let key, _): if let key { out += (out.isEmpty ? "" : ".") + key }
                case .array(let index): out += "[\(index)]"
                }
            }
            return out.isEmpty ? "the request" : out
        }
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"): stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["): stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .array(let n)?: stack[stack.count - 1] = .array(index: n + 1)
                case .object(let key, _)?: stack[stack.count - 1] = .object(key: key, expectingKey: true)
                case nil: break
                }
            case UInt8(ascii: ":"):
                if case .object(let key, _)? = stack.last { stack[stack.count - 1] = .object(key: key, expectingKey: false) }
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                if case .object(_, true)? = stack.last {
                    let key = String(decoding: bytes[min(i + 1, bytes.count)..<min(j, bytes.count)], as: UTF8.self)
                    stack[stack.count - 1] = .object(key: key, expectingKey: true)
                }
                i = j
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var j = i
                while j < bytes.count, "0123456789+-.eE".utf8.contains(bytes[j]) { j += 1 }
                let token = String(decoding: bytes[i..<j], as: UTF8.self)
                var key: String?
                if case .object(let k, false)? = stack.last { key = k }
                switch check(token, wholeNumber: key.flatMap { wholeNumberFields[$0] }) {
                case .fits: break
                case .tooSmall: zeroed.append(i..<j)
                case .problem(let message): return .problem("\(here()): \(message)")
                }
                i = j - 1
            default: break
            }
            i += 1
        }
        guard !zeroed.isEmpty else { return .fine(line) }
        var out = bytes
        for range in zeroed.reversed() { out.replaceSubrange(range, with: Array("0".utf8)) }
        return .fine(String(decoding: out, as: UTF8.self))
    }

    private enum TokenFit { case fits, tooSmall, problem(String) }

    /// Whether number `token` fits its field: a Double, or a whole number in `wholeNumber`'s range.
    private static func check(_ token: String, wholeNumber range: (lowest: Int64, highest: Int64)?) -> TokenFit {
        guard let value = Double(token) else { return .fits }  // not a JSON number: the decoder says so
        guard value.isFinite else { return .problem("not a finite number, got \(token)") }
        let digits = token.prefix { $0 != "e" && $0 != "E" }
        let tooSmall = value == 0 && digits.contains { ("1"..."9").contains($0) }
        if let range {
            let spelledWhole = !token.contains { ".eE".contains($0) }
            let whole: Int64? = spelledWhole ? Int64(token) : (value == value.rounded(.towardZero) && abs(value) < 9.2e18 ? Int64(value) : nil)
            guard !tooSmall, let whole, whole >= range.lowest, whole <= range.highest else {
                let from = range.lowest == Int64.min ? "" : " from \(range.lowest) to \(range.highest)"
                return .problem("expected a whole number\(from), got \(token)")
            }
            return .fits
        }
        return tooSmall ? .tooSmall : .fits
    }
}
