import GestureCore
import GestureYAML

/// A region subtree with recognizers on it, as a socket client attaches it.
public struct Attachment: Sendable, Equatable {
    public var region: RegionSpec
    public var recognizers: [RecognizerSpec]
}

/// What an `update` request changes on a region.
public struct RegionChange: Sendable, Equatable {
    public var frame: RegionFrame?
    public var hidden: Bool?
    public var interactive: Bool?
}

/// Every problem of a request, each as "path.in.request: message".
public struct RequestErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [String]
    public var description: String { errors.joined(separator: "; ") }
}

/// Reads the region and gesture parts of socket requests (`attach`, `update`; docs/protocol.md)
/// with exactly the config file's rules (`SchemaReader`): the request line is JSON, which YAML
/// reads too. Positions become paths inside the request (`regions.children[1].frame`), since a
/// request has no lines to point at.
public enum RequestReader {
    /// `regions` (one region mapping, children allowed) and `gestures` (a list) of an attach request.
    public static func attachment(_ line: String, parent: String) -> Result<Attachment, RequestErrors> {
        read(line) { top, schema, reader in
            guard let regions = top["regions"] else {
                // `region` names a gesture's region in the config; here the key holds the region itself.
                let written = ["region", "view", "area", "frame"].first { top[$0] != nil }
                reader.error(top.node, "missing key 'regions' (a region mapping with 'id', like the config's)"
                             + (written.map { "; found '\($0)': the region goes under 'regions' (\"regions\": {\"id\": ..., \"frame\": [...]})" } ?? ""))
                return nil
            }
            return schema.attachment(regions: regions, gestures: top["gestures"], parent: parent)
                .map { Attachment(region: $0.0, recognizers: $0.1) }
        }
    }

    /// `frame`, `hidden` and `interactive` of an update request for region `id`.
    public static func regionChange(_ line: String, id: String) -> Result<RegionChange, RequestErrors> {
        read(line) { top, schema, _ in
            let (frame, hidden, interactive) = schema.regionChange(id: id, frame: top["frame"], hidden: top["hidden"],
                                                                   interactive: top["interactive"])
            return RegionChange(frame: frame, hidden: hidden, interactive: interactive)
        }
    }

    private static func read<T>(_ line: String, _ body: (TopLevel, SchemaReader, YAMLReader) -> T?) -> Result<T, RequestErrors> {
        let reader = YAMLReader(file: "request")
        let root: Node?
        do {
            root = try YAMLComposer.compose(line)
        } catch {
            return .failure(RequestErrors(errors: ["request: not valid JSON (\(error))"]))
        }
        guard let root, case .mapping(let mapping) = root else {
            return .failure(RequestErrors(errors: ["request: expected one JSON object"]))
        }
        var paths = PathIndex()
        paths.index(root, path: "")
        let top = TopLevel(node: root, mapping: mapping)
        let result = body(top, SchemaReader(reader: reader), reader)
        guard reader.errors.isEmpty, let result else {
            let errors = reader.errors.map { error in
                "\(paths.path(line: error.line, column: error.column) ?? "request"): \(error.message)"
            }
            return .failure(RequestErrors(errors: errors.isEmpty ? ["request: invalid"] : errors))
        }
        return .success(result)
    }
}

/// The top-level keys of a request.
struct TopLevel {
    let node: Node
    let mapping: Node.Mapping
    subscript(key: String) -> Node? {
        mapping.first { $0.key.scalar?.string == key }?.value
    }
}

/// Where each node of a request starts → its path (`regions.children[1].frame`); a key maps to
/// the path of its value.
struct PathIndex {
    private var byPosition: [Int: String] = [:]

    private static func key(_ line: Int, _ column: Int) -> Int { line &* 1_000_003 &+ column }

    mutating func index(_ node: Node, path: String) {
        if let mark = node.mark, byPosition[Self.key(mark.line, mark.column)] == nil {
            byPosition[Self.key(mark.line, mark.column)] = path.isEmpty ? "request" : path
        }
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                let name = key.scalar?.string ?? "?"
                let child = path.isEmpty ? name : path + "." + name
                if let mark = key.mark { byPosition[Self.key(mark.line, mark.column)] = child }
                index(value, path: child)
            }
        case .sequence(let sequence):
            for (i, item) in sequence.enumerated() { index(item, path: "\(path)[\(i)]") }
        default:
            break
        }
    }

    func path(line: Int, column: Int) -> String? { byPosition[Self.key(line, column)] }
}
