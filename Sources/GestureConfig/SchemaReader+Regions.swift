import GestureCore
import GestureYAML

/// `regions`: the region tree, frames and lengths.
extension SchemaReader {
    // MARK: Regions

    static let regionKeys = ["id", "frame", "children", "hidden", "interactive", "min-hit-size", "redirect", "control",
                             "publish-touches", "device-kinds"]

    func region(_ node: Node, isRoot: Bool, parent: String? = nil, index: Int = 0) -> RegionSpec? {
        let placeholder = isRoot ? "the root region" : "child \(index) of region '\(parent ?? "?")'"
        guard let fields = reader.fields(node, in: placeholder, allowed: Self.regionKeys) else { return nil }
        guard let idNode = fields["id"] else {
            reader.error(node, "missing key 'id' in \(placeholder)")
            return nil
        }
        guard let id = reader.identifier(idNode, "region id") else { return nil }
        if let first = regionIDs[id] {
            reader.error(idNode, "duplicate region id '\(id)' (first defined at line \(first.mark?.line ?? 0))")
        } else {
            regionIDs[id] = idNode
            regionOrder.append(id)
        }
        let context = "region '\(id)'"
        var spec = RegionSpec(id: id)
        if let frame = fields["frame"] {
            if isRoot {
                reader.error(fields.keyNode("frame"), "the root region '\(id)' always covers the whole surface: remove 'frame'")
            } else if let value = self.frame(frame, context) {
                spec.frame = value
            }
        }
        if let n = fields["hidden"] { spec.hidden = reader.bool(n, "'hidden' in \(context)") ?? spec.hidden }
        if let n = fields["interactive"] {
            spec.interactionEnabled = reader.bool(n, "'interactive' in \(context)") ?? spec.interactionEnabled
        }
        if let n = fields["control"] { spec.isControl = reader.bool(n, "'control' in \(context)") ?? spec.isControl }
        if let n = fields["publish-touches"] {
            spec.publishesTouches = reader.bool(n, "'publish-touches' in \(context)") ?? spec.publishesTouches
        }
        if let n = fields["min-hit-size"] {
            spec.minimumHitSize = pair(n, "'min-hit-size' in \(context)", single: true) { self.positive($0, $1) }
        }
        if let n = fields["redirect"], let target = reader.identifier(n, "'redirect' in \(context)") {
            spec.redirect = target
            redirects.append((id, Reference(id: target, node: n)))
        }
        if let n = fields["device-kinds"], let items = reader.list(n, "'device-kinds' in \(context)", scalarAsList: true) {
            spec.deviceKinds = Set(items.compactMap { enumValue($0, "'device-kinds' in \(context)", DeviceKind.self) })
        }
        if let n = fields["children"], let items = reader.list(n, "'children' of \(context)") {
            spec.children = items.enumerated().compactMap { region($1, isRoot: false, parent: id, index: $0) }
        }
        return spec
    }

    func frame(_ node: Node, _ context: String) -> RegionFrame? {
        let what = "'frame' in \(context)"
        guard let items = reader.list(node, what) else { return nil }
        guard items.count == 4 else {
            reader.error(node, "\(what) needs 4 items [x, y, width, height], got \(items.count)")
            return nil
        }
        let names = ["x", "y", "width", "height"]
        var lengths: [Length] = []
        for (item, name) in zip(items, names) {
            guard let length = self.length(item, "\(name) of the \(what)", nonNegative: name == "width" || name == "height")
            else { continue }
            lengths.append(length)
        }
        guard lengths.count == 4 else { return nil }
        return RegionFrame(x: lengths[0], y: lengths[1], width: lengths[2], height: lengths[3])
    }

    /// A frame length: surface units, or "N%" of the parent.
    func length(_ node: Node, _ what: String, nonNegative: Bool) -> Length? {
        guard case .scalar(let s) = node, !YAMLReader.isNull(node) else {
            reader.error(node, "expected a number or a percentage like \"50%\" for \(what), got \(YAMLReader.describe(node))")
            return nil
        }
        let text = s.string.trimmingSpaces
        let result: Length
        let value: Double
        if text.hasSuffix("%") {
            guard let p = Double(String(text.dropLast()).trimmingSpaces), p.isFinite else {
                reader.error(node, "bad percentage '\(text)' for \(what): expected a number followed by '%', like \"50%\"")
                return nil
            }
            value = p
            result = .percent(p)
        } else {
            guard let v = Double(text), v.isFinite else {
                reader.error(node, "expected a number or a percentage like \"50%\" for \(what), got '\(text)'")
                return nil
            }
            value = v
            result = .absolute(v)
        }
        if nonNegative && value < 0 {
            reader.error(node, "\(what) must not be negative, got '\(text)'")
            return nil
        }
        return result
    }
}
