import CLibyaml

/// What went wrong reading a YAML document, with libyaml's own words and positions.
public enum YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not valid UTF-8 (or holds a character YAML forbids); `offset` counts bytes.
    case reader(problem: String, offset: Int?)
    /// A token or structure error: libyaml's problem, where it is, and what was being read then.
    case syntax(problem: String, mark: Mark, context: Context?)
    /// A mapping names the same key twice (`keys` sorted; `mark` is the first of them).
    case duplicateKeys(keys: [String], mark: Mark)

    /// What libyaml was reading when it failed ("while parsing a block mapping", and where).
    public struct Context: Sendable, Equatable {
        public var text: String
        public var mark: Mark
    }

    public var description: String {
        switch self {
        case .reader(let problem, let offset):
            return offset.map { "\(problem) at byte \($0)" } ?? problem
        case .syntax(let problem, let mark, let context):
            guard let context else { return "\(mark): \(problem)" }
            return "\(mark): \(problem) (\(context.text) at \(context.mark))"
        case .duplicateKeys(let keys, let mark):
            return "\(mark): duplicate key \(keys.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }
}

/// Builds `Node` trees from libyaml's event stream (libyaml parses; this only assembles).
public enum YAMLComposer {
    /// The single document of `text`; nil for an empty stream. A second document, an undefined
    /// alias or a duplicate key is an error, as is anything libyaml refuses.
    public static func compose(_ text: String) throws(YAMLError) -> Node? {
        // A NUL after the text: libyaml wants a non-null buffer even for an empty document.
        var bytes = Array(text.utf8)
        bytes.append(0)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(YAMLError) -> Node? in
            var events = EventReader(input: UnsafeMutableBufferPointer(rebasing: buffer.dropLast()))
            defer { events.close() }
            return try events.singleDocument()
        }
    }
}

/// One libyaml parser over a UTF-8 buffer, turned into nodes recursively.
private struct EventReader {
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private var anchors: [String: Node] = [:]
    /// Collections open around the node being read: a hostile document nests deeply.
    private var depth = 0
    private static let maximumDepth = 512

    init(input: UnsafeMutableBufferPointer<UInt8>) {
        parser.initialize(to: yaml_parser_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
    }

    func close() {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    mutating func singleDocument() throws(YAMLError) -> Node? {
        var event = try next()                                   // stream start
        event.delete()
        event = try next()
        if event.type == YAML_STREAM_END_EVENT {
            event.delete()
            return nil
        }
        event.delete()                                           // document start
        let root = try node(from: try next())
        try next().delete()                                      // document end
        let end = try next()
        defer { end.delete() }
        guard end.type == YAML_STREAM_END_EVENT else {
            throw .syntax(problem: "but found another document", mark: end.mark,
                          context: .init(text: "expected a single document in the stream", mark: Mark(line: 1, column: 1)))
        }
        return root
    }

    private mutating func next() throws(YAMLError) -> Event {
        var event = Event()
        guard yaml_parser_parse(parser, &event.raw) == 1 else { throw error() }
        return event
    }

    private mutating func node(from event: Event) throws(YAMLError) -> Node {
        defer { event.delete() }
        let mark = event.mark
        switch event.type {
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.raw.data.alias.anchor) ?? ""
            guard let target = anchors[name] else {
                throw .syntax(problem: "found undefined alias", mark: mark, context: nil)
            }
            return target
        case YAML_SCALAR_EVENT:
            let data = event.raw.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let node = Node.scalar(.init(text, style: Self.style(data.style), tag: Self.string(data.tag), mark: mark))
            register(Self.string(data.anchor), node)
            return node
        case YAML_SEQUENCE_START_EVENT:
            let anchor = Self.string(event.raw.data.sequence_start.anchor)
            try enter(mark)
            var items: [Node] = []
            while true {
                let item = try next()
                if item.type == YAML_SEQUENCE_END_EVENT {
                    item.delete()
                    break
                }
                items.append(try node(from: item))
            }
            depth -= 1
            let node = Node.sequence(.init(items, mark: mark))
            register(anchor, node)
            return node
        case YAML_MAPPING_START_EVENT:
            let anchor = Self.string(event.raw.data.mapping_start.anchor)
            try enter(mark)
            var pairs: [(Node, Node)] = []
            while true {
                let keyEvent = try next()
                if keyEvent.type == YAML_MAPPING_END_EVENT {
                    keyEvent.delete()
                    break
                }
                let key = try node(from: keyEvent)
                pairs.append((key, try node(from: try next())))
            }
            depth -= 1
            try Self.checkDuplicates(pairs.map(\.0))
            let node = Node.mapping(.init(pairs, mark: mark))
            register(anchor, node)
            return node
        default:
            throw .syntax(problem: "unexpected event \(event.type.rawValue)", mark: mark, context: nil)
        }
    }

    private mutating func enter(_ mark: Mark) throws(YAMLError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw .syntax(problem: "collections nested more than \(Self.maximumDepth) deep", mark: mark, context: nil)
        }
    }

    private mutating func register(_ anchor: String?, _ node: Node) {
        if let anchor { anchors[anchor] = node }
    }

    /// Scalar keys written twice in one mapping (by text, however quoted).
    private static func checkDuplicates(_ keys: [Node]) throws(YAMLError) {
        var first: [String: Mark] = [:]
        var repeated: Set<String> = []
        for key in keys {
            guard let scalar = key.scalar else { continue }
            if first[scalar.string] == nil {
                first[scalar.string] = scalar.mark ?? Mark(line: 0, column: 0)
            } else {
                repeated.insert(scalar.string)
            }
        }
        guard let smallest = repeated.min() else { return }
        throw .duplicateKeys(keys: repeated.sorted(), mark: first[smallest]!)
    }

    private func error() -> YAMLError {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown error"
        if p.error == YAML_READER_ERROR || p.error == YAML_MEMORY_ERROR {
            return .reader(problem: problem, offset: p.error == YAML_READER_ERROR ? Int(p.problem_offset) : nil)
        }
        let context = p.context.map {
            YAMLError.Context(text: String(cString: $0), mark: Mark(line: Int(p.context_mark.line) + 1,
                                                                    column: Int(p.context_mark.column) + 1))
        }
        return .syntax(problem: problem, mark: Mark(line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1),
                       context: context)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> Node.Scalar.Style {
        switch style {
        case YAML_PLAIN_SCALAR_STYLE: .plain
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .any
        }
    }
}

/// One libyaml event; `delete()` frees what libyaml allocated for it.
private struct Event {
    var raw = yaml_event_t()
    var type: yaml_event_type_t { raw.type }
    var mark: Mark { Mark(line: Int(raw.start_mark.line) + 1, column: Int(raw.start_mark.column) + 1) }
    func delete() {
        var copy = raw
        yaml_event_delete(&copy)
    }
}
