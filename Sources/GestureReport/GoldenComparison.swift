import GestureCore

/// `gestured replay --expect GOLDEN`: the replay's JSON lines against the lines a golden file holds,
/// and a readable account of the first differences (each with its gesture and time, and for a
/// changed line the keys whose values differ).
public struct GoldenComparison {
    public let expected: [String]
    public let actual: [String]

    public enum Step: Equatable {
        case same(expected: Int, actual: Int)
        case missing(expected: Int)
        case unexpected(actual: Int)
        case changed(expected: Int, actual: Int)
    }

    /// The edit script from the expected lines to the replayed ones (a removal followed by an
    /// insertion at the same place is one changed line).
    public let steps: [Step]

    public init(expected: [String], actual: [String]) {
        self.expected = expected
        self.actual = actual
        let difference = actual.difference(from: expected)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var steps: [Step] = []
        var i = 0, j = 0
        while i < expected.count || j < actual.count {
            if i < expected.count && removed.contains(i) {
                if j < actual.count && inserted.contains(j) {
                    steps.append(.changed(expected: i, actual: j))
                    j += 1
                } else {
                    steps.append(.missing(expected: i))
                }
                i += 1
            } else if j < actual.count && inserted.contains(j) {
                steps.append(.unexpected(actual: j))
                j += 1
            } else {
                steps.append(.same(expected: i, actual: j))
                i += 1
                j += 1
            }
        }
        self.steps = steps
    }

    /// Splits a golden file's text into lines (blank lines ignored).
    public static func lines(of text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { String($0) }.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
    }

    public var isEqual: Bool { expected == actual }

    public var differenceCount: Int {
        steps.reduce(0) { count, step in if case .same = step { return count } else { return count + 1 } }
    }

    /// The account of the differences: a summary line naming `file`, then up to `limit` differing
    /// lines with their line number in the golden file, gesture and time (ms since `origin`).
    /// `origin`: time zero of the ms (the replay's first event; nil: the first line's time).
    public func report(file: String, origin: Timestamp? = nil, limit: Int = 8) -> String {
        guard !isEqual else { return "\(file): as expected (\(expected.count) lines)" }
        let origin = origin ?? (expected + actual).lazy.compactMap { Self.time(of: $0) }.first
        var out = ["\(file): the replay differs from the expected output: \(differenceCount) line"
                   + (differenceCount == 1 ? "" : "s") + " differ (\(expected.count) expected, \(actual.count) replayed)"]
        var shown = 0
        var expectedLine = 0
        for step in steps {
            switch step {
            case .same(let e, _):
                expectedLine = e + 1
                continue
            case .missing(let e):
                expectedLine = e + 1
                if shown < limit { out.append("  line \(e + 1): - missing     " + describe(expected[e], origin)) }
            case .unexpected(let a):
                if shown < limit {
                    out.append("  after line \(expectedLine): + unexpected  " + describe(actual[a], origin))
                }
            case .changed(let e, let a):
                expectedLine = e + 1
                if shown < limit {
                    out.append("  line \(e + 1): ~ changed     " + describe(expected[e], origin))
                    for difference in Self.fieldDifferences(expected[e], actual[a]) { out.append("      " + difference) }
                }
            }
            shown += 1
        }
        if shown > limit { out.append("  … and \(shown - limit) more") }
        return out.joined(separator: "\n")
    }

    /// "double-tap tap recognized at 232 ms, 1 finger" (or the line itself when it is not an output).
    func describe(_ line: String, _ origin: Timestamp?) -> String {
        func ms(_ t: Timestamp) -> String { ValueText.milliseconds(t.milliseconds(since: origin ?? t)) + " ms" }
        switch OutputLine(jsonLine: line) {
        case .engine(.gesture(let g)):
            return "\(g.gesture) \(g.kind.rawValue) \(g.state.rawValue) at \(ms(g.time)), \(g.fingers) finger"
                + (g.fingers == 1 ? "" : "s")
        case .engine(.touch(let t)):
            return "touch \(t.id) \(t.phase.rawValue) at \(ms(t.time))"
        case .engine(.explain(let e)):
            return "\(e.gesture) \(e.from.rawValue)→\(e.to.rawValue) at \(ms(e.time)): \(e.reason)"
        default:
            return line.count > 100 ? String(line.prefix(99)) + "…" : line
        }
    }

    static func time(of line: String) -> Timestamp? {
        switch OutputLine(jsonLine: line) {
        case .engine(.gesture(let g)): g.time
        case .engine(.touch(let t)): t.time
        case .engine(.explain(let e)): e.time
        default: nil
        }
    }

    /// "taps: expected 2, replayed 3" for every top-level key whose value differs.
    static func fieldDifferences(_ expected: String, _ actual: String) -> [String] {
        guard let a = JSONFields.parse(expected), let b = JSONFields.parse(actual) else {
            return ["expected \(expected)", "replayed \(actual)"]
        }
        var keys = a.map(\.key)
        for (key, _) in b where !keys.contains(key) { keys.append(key) }
        let left = Dictionary(a, uniquingKeysWith: { first, _ in first })
        let right = Dictionary(b, uniquingKeysWith: { first, _ in first })
        return keys.compactMap { key in
            let x = left[key], y = right[key]
            guard x != y else { return nil }
            return "\(key): expected \(x ?? "(absent)"), replayed \(y ?? "(absent)")"
        }
    }
}

/// The top-level `"key":value` pairs of one JSON object line, values kept as their JSON text.
enum JSONFields {
    static func parse(_ line: String) -> [(key: String, value: String)]? {
        let s = Array(line.utf8)
        var i = 0
        func skipSpace() { while i < s.count, s[i] == 32 || s[i] == 9 { i += 1 } }
        /// End index (exclusive) of the JSON value starting at `i`.
        func valueEnd() -> Int? {
            var depth = 0
            var inString = false
            var j = i
            while j < s.count {
                let c = s[j]
                if inString {
                    if c == 92 { j += 1 } else if c == 34 { inString = false }
                } else if c == 34 {
                    inString = true
                } else if c == 123 || c == 91 {
                    depth += 1
                } else if c == 125 || c == 93 {
                    if depth == 0 { return j }
                    depth -= 1
                } else if c == 44 && depth == 0 {
                    return j
                }
                j += 1
            }
            return nil
        }
        skipSpace()
        guard i < s.count, s[i] == 123 else { return nil }
        i += 1
        var fields: [(key: String, value: String)] = []
        while true {
            skipSpace()
            guard i < s.count else { return nil }
            if s[i] == 125 { return fields }
            guard s[i] == 34 else { return nil }
            var j = i + 1
            while j < s.count, s[j] != 34 { j += s[j] == 92 ? 2 : 1 }
            guard j < s.count else { return nil }
            let key = String(decoding: s[(i + 1)..<j], as: UTF8.self)
            i = j + 1
            skipSpace()
            guard i < s.count, s[i] == 58 else { return nil }
            i += 1
            skipSpace()
            guard let end = valueEnd() else { return nil }
            var value = Substring(String(decoding: s[i..<end], as: UTF8.self))
            while value.last == " " { value.removeLast() }
            fields.append((key, String(value)))
            i = end
            if s[i] == 44 { i += 1 }
        }
    }
}
