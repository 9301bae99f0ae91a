import GestureYAML

/// Edits a config's text the way a person would, for the view's settings page (docs/view.md,
/// "Settings"): a binding or a gesture added is one new line at the end of its list; a binding
/// changed is its lines replaced by one line; every other line — comments, order, blank lines,
/// style — stays byte for byte. Values the caller gives are written as YAML double-quoted strings
/// (JSON's escapes), so no text can break out of its value. The result is not checked here: the
/// caller reads it with `ConfigurationLoader` before writing it anywhere.
public enum ConfigTextEdit {
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// A binding as the page edits it: the gesture, a command and key combinations. Keys of the
    /// binding the page does not show (`states`, `every`, `cooldown`, `action`...) are kept when a
    /// binding is changed.
    public struct Binding: Sendable, Equatable {
        public var gesture: String
        public var command: String?
        public var keys: [[String]]
        public init(gesture: String, command: String? = nil, keys: [[String]] = []) {
            self.gesture = gesture
            self.command = command
            self.keys = keys
        }
    }

    /// A gesture to add: on the screen's `gestures` (with `region` when given) or, with `rule`, in
    /// that window rule's `gestures`.
    public struct Gesture: Sendable, Equatable {
        public var id: String
        public var kind: String
        public var fingers: Int?
        /// `directions: [d]` for a swipe, `edges: [d]` for an edge pan.
        public var direction: String?
        public var region: String?
        public var rule: String?
        public init(id: String, kind: String, fingers: Int? = nil, direction: String? = nil,
                    region: String? = nil, rule: String? = nil) {
            self.id = id
            self.kind = kind
            self.fingers = fingers
            self.direction = direction
            self.region = region
            self.rule = rule
        }
    }

    // MARK: bindings

    /// The bindings' list: the short form's, or the long form's `commands`.
    public static func bindingItems(_ root: Node.Mapping?) -> Node.Sequence? {
        guard let node = root?["bindings"] else { return nil }
        return node.sequence ?? node.mapping?["commands"]?.sequence
    }

    /// `source` with binding `index` (0-based, in file order) replaced, or with a binding added at
    /// the end of the list when `index` is nil.
    public static func setBinding(_ source: String, index: Int?, _ binding: Binding) throws(Failure) -> String {
        let root = try compose(source)
        var lines = splitLines(source)
        let list = bindingItems(root)
        if let index {
            guard let list, index >= 0, index < list.items.count, let old = list.items[index].mapping else {
                throw Failure("there is no binding \(index + 1) to change")
            }
            let text = bindingText(binding, keeping: old)
            try replaceItem(list.items[index], in: &lines, with: text)
        } else {
            try append(bindingText(binding, keeping: nil), to: list, key: "bindings", of: root, in: &lines,
                       otherwise: "'bindings' is neither a list nor a mapping with 'commands'; add the binding in the file")
        }
        return lines.joined(separator: "\n")
    }

    /// `source` with `gesture` added at the end of the screen's `gestures` or its rule's.
    public static func addGesture(_ source: String, _ gesture: Gesture) throws(Failure) -> String {
        let root = try compose(source)
        var lines = splitLines(source)
        var pairs: [(String, String)] = [("id", quoted(gesture.id)), ("kind", quoted(gesture.kind))]
        if let fingers = gesture.fingers { pairs.append(("fingers", String(fingers))) }
        if let direction = gesture.direction {
            pairs.append((gesture.kind == "edge-pan" ? "edges" : "directions", "[\(quoted(direction))]"))
        }
        if let rule = gesture.rule {
            guard let rules = root?["windows"]?.sequence,
                  let mapping = rules.items.compactMap(\.mapping).first(where: { $0["id"]?.string == rule }) else {
                throw Failure("there is no window rule '\(rule)' in the config's 'windows'")
            }
            let text = flowMapping(pairs)
            guard let list = mapping["gestures"]?.sequence else {
                throw Failure("window rule '\(rule)' has no 'gestures' list to add to; add one in the file")
            }
            try appendItem(text, to: list, in: &lines)
        } else {
            if let region = gesture.region, !region.isEmpty { pairs.append(("region", quoted(region))) }
            try append(flowMapping(pairs), to: root?["gestures"]?.sequence, key: "gestures", of: root, in: &lines,
                       otherwise: "'gestures' is not a list")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: text

    static func compose(_ source: String) throws(Failure) -> Node.Mapping? {
        let root: Node?
        do { root = try YAMLComposer.compose(source) } catch { throw Failure("\(error)") }
        guard let root else { return nil }
        guard let mapping = root.mapping else { throw Failure("the config is not a mapping of top-level keys") }
        return mapping
    }

    static func splitLines(_ source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A binding's one-line flow mapping: the page's three keys first, then the old binding's
    /// other keys as they were (re-written in flow style).
    static func bindingText(_ binding: Binding, keeping old: Node.Mapping?) -> String {
        var pairs: [(String, String)] = [("gesture", quoted(binding.gesture))]
        if let command = binding.command, !command.isEmpty { pairs.append(("command", quoted(command))) }
        if !binding.keys.isEmpty {
            pairs.append(("keys", "[" + binding.keys.map { "[" + $0.map(quoted).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "]"))
        }
        for pair in old?.pairs ?? [] {
            guard let key = pair.key.string, !["gesture", "command", "keys"].contains(key) else { continue }
            pairs.append((flow(pair.key), flow(pair.value)))
        }
        return flowMapping(pairs)
    }

    static func flowMapping(_ pairs: [(String, String)]) -> String {
        "{ " + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }

    /// Any node in flow style: plain scalars that need no quotes stay plain, others are quoted.
    public static func flow(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            let safe = !s.string.isEmpty && s.style == .plain && s.string.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_.%+/".unicodeScalars.contains($0)
            }
            return safe ? s.string : quoted(s.string)
        case .sequence(let s): return "[" + s.items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let m): return flowMapping(m.pairs.map { (flow($0.key), flow($0.value)) })
        }
    }

    /// A YAML double-quoted scalar with JSON's escapes (control characters, U+2028 / U+2029 and
    /// DEL as `\uXXXX`).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                    let hex = String(v, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The block item's lines: from its dash to the last line indented deeper than the dash
    /// (blank lines and comments inside kept with it, those after it left alone).
    static func itemRange(_ item: Node, in lines: [String]) throws(Failure) -> (range: ClosedRange<Int>, prefix: String) {
        guard let mark = item.mark, mark.line >= 1, mark.line <= lines.count else {
            throw Failure("a list item without a position")
        }
        let first = Array(lines[mark.line - 1])
        guard let dash = first[..<min(first.count, mark.column - 1)].lastIndex(of: "-"),
              first[..<dash].allSatisfy({ $0 == " " }) else {
            throw Failure("the list at line \(mark.line) is not a block list (`- item` lines); edit it in the file")
        }
        var end = mark.line - 1
        var index = mark.line
        while index < lines.count {
            let text = lines[index]
            let indent = text.prefix { $0 == " " }.count
            let rest = text.dropFirst(indent)
            if rest.isEmpty || (rest.hasPrefix("#") && indent > dash) {
                index += 1
                continue
            }
            guard indent > dash else { break }
            end = index
            index += 1
        }
        return ((mark.line - 1)...end, String(repeating: " ", count: dash) + "- ")
    }

    static func replaceItem(_ item: Node, in lines: inout [String], with text: String) throws(Failure) {
        let (range, prefix) = try itemRange(item, in: lines)
        // A comment on the item's first line stays on it.
        let comment = trailingComment(lines[range.lowerBound])
        lines.replaceSubrange(range, with: [prefix + text + (comment.map { "  " + $0 } ?? "")])
    }

    static func appendItem(_ text: String, to list: Node.Sequence, in lines: inout [String]) throws(Failure) {
        guard let last = list.items.last else {
            throw Failure("the list at line \(list.mark?.line ?? 0) is empty (`[]`); write its first item in the file")
        }
        let (range, prefix) = try itemRange(last, in: lines)
        lines.insert(prefix + text, at: range.upperBound + 1)
    }

    /// `text` as the last item of `list`, the top-level `key`'s; when the file has no `key`, as the
    /// item of a new block; when its `key` is no list, the failure `otherwise`.
    static func append(_ text: String, to list: Node.Sequence?, key: String, of root: Node.Mapping?,
                       in lines: inout [String], otherwise: String) throws(Failure) {
        if let list {
            try appendItem(text, to: list, in: &lines)
        } else if root?[key] != nil {
            throw Failure(otherwise)
        } else {
            appendBlock(key: key, item: text, to: &lines)
        }
    }

    /// A new top-level key at the end of the file.
    static func appendBlock(key: String, item: String, to lines: inout [String]) {
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        lines += ["", "\(key):", "  - " + item, ""]
    }

    /// ` # ...` after a value on a line, if there is one outside quotes.
    static func trailingComment(_ line: String) -> String? {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if let q = quote {
                if c == q && previous != "\\" { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#" && (previous == " " || previous == "\t") {
                return String(line.dropFirst(offset))
            }
            previous = c
        }
        return nil
    }
}
