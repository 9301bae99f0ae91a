/// A YAML document as composed from libyaml's events: scalars keep their text and style (no
/// implicit typing: readers convert the text themselves), mappings keep their pairs in order,
/// aliases are replaced by the node they name. Every node knows where it starts.
public enum Node: Sendable, Equatable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// Where the node starts (1-based line and column).
    public var mark: Mark? {
        switch self {
        case .scalar(let s): s.mark
        case .mapping(let m): m.mark
        case .sequence(let s): s.mark
        }
    }

    public var scalar: Scalar? { if case .scalar(let s) = self { s } else { nil } }
    public var mapping: Mapping? { if case .mapping(let m) = self { m } else { nil } }
    public var sequence: Sequence? { if case .sequence(let s) = self { s } else { nil } }
    /// The text of a scalar, nil for a collection.
    public var string: String? { scalar?.string }

    /// A scalar: its text as written (quotes and escapes resolved) and how it was written.
    public struct Scalar: Sendable, Equatable {
        public var string: String
        public var style: Style
        /// An explicit tag (`!!str`), nil when none was written.
        public var tag: String?
        public var mark: Mark?

        public init(_ string: String, style: Style = .plain, tag: String? = nil, mark: Mark? = nil) {
            self.string = string
            self.style = style
            self.tag = tag
            self.mark = mark
        }

        /// libyaml's scalar styles.
        public enum Style: Sendable, Equatable {
            case any, plain, singleQuoted, doubleQuoted, literal, folded
        }
    }

    /// A mapping's pairs in document order.
    public struct Mapping: Sendable, Equatable, RandomAccessCollection {
        public var pairs: [Pair]
        public var mark: Mark?

        public struct Pair: Sendable, Equatable {
            public var key: Node
            public var value: Node
        }

        public init(_ pairs: [(Node, Node)], mark: Mark? = nil) {
            self.pairs = pairs.map { Pair(key: $0.0, value: $0.1) }
            self.mark = mark
        }

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> (key: Node, value: Node) { (pairs[position].key, pairs[position].value) }

        /// The value of the first pair whose key is the scalar `key`.
        public subscript(key: String) -> Node? {
            pairs.first { $0.key.scalar?.string == key }?.value
        }
    }

    /// A sequence's items in document order.
    public struct Sequence: Sendable, Equatable, RandomAccessCollection {
        public var items: [Node]
        public var mark: Mark?

        public init(_ items: [Node], mark: Mark? = nil) {
            self.items = items
            self.mark = mark
        }

        public var startIndex: Int { items.startIndex }
        public var endIndex: Int { items.endIndex }
        public subscript(position: Int) -> Node { items[position] }
    }
}

/// A position in the YAML text: 1-based line and column (columns count Unicode scalars, as libyaml does).
public struct Mark: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
