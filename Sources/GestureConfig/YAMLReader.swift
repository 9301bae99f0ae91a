import GestureCore
import GestureYAML

/// Walks composed YAML nodes, converting values and collecting positioned errors.
///
/// Every accessor returns nil after recording an error, so a caller just skips what was bad and
/// goes on: the loader reports every problem of a file at once.
final class YAMLReader {
    let file: String
    private(set) var errors: [ConfigError] = []

    init(file: String) {
        self.file = file
    }

    // MARK: Errors

    func error(position: (line: Int, column: Int)?, _ message: String) {
        errors.append(ConfigError(file: file, line: position?.line ?? 1, column: position?.column ?? 1, message: message))
    }

    func error(at mark: Mark?, _ message: String) {
        error(position: mark.map { (line: $0.line, column: $0.column) }, message)
    }

    func error(_ node: Node?, _ message: String) {
        error(at: node?.mark, message)
    }

    /// Records a YAML parse error with the position it carries.
    func syntaxError(_ yamlError: YAMLError, in yaml: String) {
        switch yamlError {
        case let .syntax(problem, mark, context):
            var message = "YAML syntax error: \(problem)"
            if let context, !context.text.isEmpty {
                if problem.hasPrefix("but ") {
                    message = "YAML syntax error: \(context.text), \(problem)"
                } else {
                    message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
                }
            }
            if Self.character(at: mark, in: yaml) == "\t" {
                message += "; indent with spaces, YAML does not allow tabs"
            } else if let hint = Self.indentationHint(problem, at: mark, in: yaml) {
                message += "; \(hint)"
            }
            self.error(at: mark, message)
        case let .reader(problem, offset):
            self.error(position: offset.map { Self.mark(ofOffset: $0, in: yaml) }, "cannot read YAML: \(problem)")
        case let .duplicateKeys(keys, mark):
            self.error(at: mark, "duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", ")) in the same mapping")
        }
    }

    /// libyaml's words for a line indented by a column too many or too few, as a reader can act on
    /// them: the line the parser stopped at and its indentation.
    static func indentationHint(_ problem: String, at mark: Mark, in yaml: String) -> String? {
        let indentationProblems = ["mapping values are not allowed in this context", "did not find expected key",
                                   "did not find expected '-' indicator",
                                   "block sequence entries are not allowed in this context"]
        guard indentationProblems.contains(where: problem.hasPrefix) else { return nil }
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let line = lines[mark.line - 1]
        guard line.contains(where: { $0 != " " }) else { return nil }
        let spaces = line.prefix { $0 == " " }.count
        return "check the indentation of line \(mark.line) (\(spaces) space\(spaces == 1 ? "" : "s")): the keys of one "
            + "mapping start in the same column, and the items of one list too"
    }

    /// The character at a 1-based line and column (in Unicode scalars), if any.
    static func character(at mark: Mark, in text: String) -> Unicode.Scalar? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = Array(lines[mark.line - 1].unicodeScalars)
        guard mark.column >= 1, mark.column <= scalars.count else { return nil }
        return scalars[mark.column - 1]
    }

    /// Line and column (1-based, in Unicode scalars as libyaml counts) of a byte offset.
    static func mark(ofOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var consumed = 0
        for scalar in text.unicodeScalars {
            if consumed >= offset { break }
            consumed += String(scalar).utf8.count
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line: line, column: column)
    }

    // MARK: Shapes

    /// A short description of a node for "got ..." messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            if isNull(node) { return "nothing" }
            return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    /// The keys of a mapping in order, with unknown keys reported against `allowed`.
    /// An empty value (`devices:` with everything commented out) counts as an empty mapping.
    /// `explain` may say why a key is not allowed here (instead of "did you mean").
    /// `words`: keys other tools use (compact, as `ConfigWords.compact` writes them) → the key meant.
    func fields(_ node: Node, in context: String, allowed: [String], explain: (String) -> String? = { _ in nil },
                words: [String: String] = [:]) -> Fields? {
        if Self.isNull(node) { return Fields(node: node) }
        guard case .mapping(let mapping) = node else {
            error(node, "expected a mapping for \(context), got \(Self.describe(node))")
            return nil
        }
        var fields = Fields(node: node)
        for (keyNode, value) in expandingMergeKeys(mapping, in: context) {
            guard case .scalar(let key) = keyNode, !Self.isNull(keyNode) else {
                error(keyNode, "expected a key name in \(context), got \(Self.describe(keyNode))")
                continue
            }
            guard allowed.contains(key.string) else {
                var message = "unknown key '\(key.string)' in \(context)"
                if let why = explain(key.string) {
                    message += ": \(why)"
                } else if let guess = words[ConfigWords.compact(key.string)] ?? Self.suggestion(for: key.string, among: allowed) {
                    message += " (did you mean '\(guess)'?)"
                }
                error(keyNode, message)
                continue
            }
            fields.entries[key.string] = (keyNode, value)
        }
        return fields
    }

    /// The pairs of a mapping with YAML merge keys (`<<: *anchor`) expanded; explicit keys win.
    func expandingMergeKeys(_ mapping: Node.Mapping, in context: String, report: Bool = true) -> [(Node, Node)] {
        var own: [(Node, Node)] = []
        var merged: [(Node, Node)] = []
        for (key, value) in mapping {
            guard case .scalar(let s) = key, s.string == "<<", s.style == .plain || s.style == .any else {
                own.append((key, value))
                continue
            }
            let sources: [Node]
            if case .sequence(let items) = value { sources = Array(items) } else { sources = [value] }
            for source in sources {
                guard case .mapping(let inner) = source else {
                    if !report { continue }
                    error(source, "expected a mapping to merge with '<<' in \(context), got \(Self.describe(source))")
                    continue
                }
                merged.append(contentsOf: expandingMergeKeys(inner, in: context, report: report))
            }
        }
        let ownKeys = Set(own.compactMap { $0.0.scalar?.string })
        var seen: Set<String> = []
        let inherited = merged.filter { key, _ in
            guard let name = key.scalar?.string else { return true }
            return !ownKeys.contains(name) && seen.insert(name).inserted
        }
        return own + inherited
    }

    /// The items of a list; a single scalar counts as a one-item list when `scalarAsList`.
    /// An empty value counts as an empty list.
    func list(_ node: Node, _ what: String, scalarAsList: Bool = false) -> [Node]? {
        if Self.isNull(node) { return [] }
        switch node {
        case .sequence(let sequence): return Array(sequence)
        case .scalar where scalarAsList && !Self.isNull(node): return [node]
        default:
            error(node, "expected a list for \(what), got \(Self.describe(node))")
            return nil
        }
    }

    /// A plain empty, "~" or "null" scalar.
    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain || s.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    // MARK: Scalars

    /// A non-empty scalar string.
    func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let s) = node, !Self.isNull(node) else {
            error(node, "expected a string for \(what), got \(Self.describe(node))")
            return nil
        }
        guard !s.string.isEmpty else {
            error(node, "\(what) must not be empty")
            return nil
        }
        return s.string
    }

    /// An identifier: letters, digits, '-', '_' and '.'.
    func identifier(_ node: Node, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        let allowed = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || $0 == "-" || $0 == "_" || $0 == "."
        }
        guard allowed else {
            error(node, "invalid \(what) '\(text)': use letters, digits, '-', '_' and '.'")
            return nil
        }
        return text
    }

    func bool(_ node: Node, _ what: String) -> Bool? {
        if case .scalar(let s) = node {
            switch s.string.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: break
            }
        }
        error(node, "expected true or false for \(what), got \(Self.describe(node))")
        return nil
    }

    /// An integer within `range`.
    func integer(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let s) = node, let value = Int(s.string.trimmingSpaces) else {
            error(node, "expected a whole number for \(what), got \(Self.describe(node))")
            return nil
        }
        guard range.contains(value) else {
            error(node, "\(what) must be \(Self.describe(range)), got \(value)")
            return nil
        }
        return value
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        if range.upperBound == Int.max { return "at least \(range.lowerBound)" }
        if range.count == 1 { return "\(range.lowerBound)" }
        return "between \(range.lowerBound) and \(range.upperBound)"
    }

    /// A finite number.
    func number(_ node: Node, _ what: String) -> Double? {
        guard case .scalar(let s) = node, let value = Double(s.string.trimmingSpaces), value.isFinite else {
            error(node, "expected a number for \(what), got \(Self.describe(node))")
            return nil
        }
        return value
    }

    /// A quantity with its unit (`6mm`, `0.5s`), converted to the base unit of `kind` (mm, ms or
    /// degrees). A bare number other than 0 is refused with what it probably meant: `0.5` for a
    /// duration is far more likely half a second than half a millisecond.
    func quantity(_ node: Node, _ what: String, _ kind: Quantity, allowZero: Bool = true) -> Double? {
        guard case .scalar(let s) = node, !Self.isNull(node) else {
            error(node, "expected \(kind.expectation) for \(what), got \(Self.describe(node))")
            return nil
        }
        if let bare = Double(s.string.trimmingSpaces), bare.isFinite, bare != 0 {
            error(node, "\(what) needs a unit, got a bare \(s.string.trimmingSpaces): \(kind.unitHint(bare))")
            return nil
        }
        guard let value = kind.parse(s.string) else {
            error(node, "expected \(kind.expectation) for \(what), got '\(s.string)'")
            return nil
        }
        guard value >= 0, allowZero || value > 0 else {
            error(node, "\(what) must be \(allowZero ? "zero or more" : "more than zero"), got '\(s.string)'")
            return nil
        }
        return value
    }

    // MARK: Suggestions

    /// The closest candidate within a small edit distance, for "did you mean" (`NameSuggestion`).
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        NameSuggestion.nearest(to: word, among: candidates)
    }
}

/// The known keys of one mapping, with their key nodes for positions.
struct Fields {
    let node: Node
    var entries: [String: (key: Node, value: Node)] = [:]

    init(node: Node) {
        self.node = node
    }

    subscript(key: String) -> Node? { entries[key]?.value }
    func keyNode(_ key: String) -> Node? { entries[key]?.key }
    func has(_ key: String) -> Bool { entries[key] != nil }
}

/// A physical quantity in the config, with the units it accepts.
enum Quantity {
    /// Base unit mm; also "cm", "in".
    case length
    /// Base unit ms; also "s".
    case duration
    /// Base unit degrees; also "deg", "°", "rad".
    case angle

    var expectation: String {
        switch self {
        case .length: "a length (e.g. 6mm)"
        case .duration: "a duration (e.g. 350ms)"
        case .angle: "an angle (e.g. 8deg)"
        }
    }

    /// What a bare number probably meant, for the error refusing it.
    func unitHint(_ value: Double) -> String {
        func text(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        }
        switch self {
        case .length:
            return "write \(text(value))mm (lengths take mm, cm or in)"
        case .duration:
            // Under 10, seconds are what people mean (no hand acts in a few milliseconds).
            return abs(value) < 10
                ? "write \(text(value))s (\(text(value * 1000))ms); durations take ms or s"
                : "write \(text(value))ms (durations take ms or s)"
        case .angle:
            return "write \(text(value))deg (angles take deg, ° or rad)"
        }
    }

    private var units: [(suffix: String, factor: Double)] {
        switch self {
        case .length: [("mm", 1), ("cm", 10), ("in", 25.4)]
        case .duration: [("ms", 1), ("s", 1000)]
        case .angle: [("deg", 1), ("°", 1), ("rad", 180 / Double.pi)]
        }
    }

    /// The value in the base unit, or nil when the text is not a number with one of our units (a
    /// bare number is in the base unit here; `YAMLReader.quantity` refuses it first).
    func parse(_ text: String) -> Double? {
        let text = text.trimmingSpaces
        if let plain = Double(text) { return plain.isFinite ? plain : nil }
        // Longest suffix first, so "ms" is not read as "s".
        for unit in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where text.hasSuffix(unit.suffix) {
            let number = String(text.dropLast(unit.suffix.count)).trimmingSpaces
            guard let value = Double(number), value.isFinite else { return nil }
            return value * unit.factor
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
