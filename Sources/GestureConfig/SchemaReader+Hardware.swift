import GestureCore
import GestureYAML

/// `devices` (which input devices are opened) and `surfaces` (how each maps onto the surface).
extension SchemaReader {
    // MARK: Devices

    static let matchKeys = ["kind", "name", "vendor", "product", "vendor-product", "path"]

    func devices(_ node: Node) -> DeviceSelection {
        var selection = DeviceSelection()
        guard let fields = reader.fields(node, in: "'devices'", allowed: ["include", "ignore", "grab", "forward"]) else {
            return selection
        }
        if let grab = fields["grab"] { selection.grab = reader.bool(grab, "'grab' in 'devices'") ?? false }
        if let forward = fields["forward"] { selection.forward = reader.bool(forward, "'forward' in 'devices'") ?? false }
        for key in ["include", "ignore"] {
            guard let listNode = fields[key], let items = reader.list(listNode, "'devices.\(key)'") else { continue }
            let matches = items.enumerated().compactMap { index, item -> DeviceMatch? in
                if case .mapping(let mapping) = item, mapping.count == 0 {
                    reader.error(item, "empty match in devices.\(key)[\(index)] would match every device")
                    return nil
                }
                return deviceMatch(item, in: "devices.\(key)[\(index)]")
            }
            if key == "include" { selection.include = matches } else { selection.ignore = matches }
        }
        return selection
    }

    func deviceMatch(_ node: Node, in context: String) -> DeviceMatch? {
        guard let fields = reader.fields(node, in: context, allowed: Self.matchKeys) else { return nil }
        var match = DeviceMatch()
        if let kind = fields["kind"] {
            match.kind = enumValue(kind, "'kind' in \(context)", DeviceKind.self)
        }
        if let name = fields["name"] { match.nameGlob = reader.string(name, "'name' in \(context)") }
        if let path = fields["path"] { match.path = reader.string(path, "'path' in \(context)") }
        if let vendor = fields["vendor"] { match.vendor = hexID(vendor, "'vendor' in \(context)") }
        if let product = fields["product"] { match.product = hexID(product, "'product' in \(context)") }
        if let both = fields["vendor-product"] {
            if fields.has("vendor") || fields.has("product") {
                reader.error(fields.keyNode("vendor-product"),
                             "'vendor-product' in \(context) cannot be combined with 'vendor' or 'product'")
            } else if let text = reader.string(both, "'vendor-product' in \(context)") {
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 2, let v = Self.parseHex(String(parts[0])), let p = Self.parseHex(String(parts[1])) {
                    match.vendor = v
                    match.product = p
                } else {
                    reader.error(both, "expected 'vvvv:pppp' in hex for 'vendor-product' in \(context), got '\(text)'")
                }
            }
        }
        return match
    }

    /// A 16-bit id, always hexadecimal (as lsusb prints it), with or without "0x".
    func hexID(_ node: Node, _ what: String) -> UInt16? {
        guard case .scalar(let s) = node, let value = Self.parseHex(s.string) else {
            reader.error(node, "expected a hexadecimal id like 0x056a for \(what), got \(YAMLReader.describe(node))")
            return nil
        }
        return value
    }

    static func parseHex(_ text: String) -> UInt16? {
        var digits = Substring(text.trimmingSpaces)
        if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        return UInt16(digits, radix: 16)
    }

    // MARK: Surfaces

    func surfaces(_ node: Node) -> [SurfaceRule] {
        guard let items = reader.list(node, "'surfaces'") else { return [] }
        return items.enumerated().compactMap { index, item in
            let context = "surfaces[\(index)]"
            guard let fields = reader.fields(item, in: context,
                                             allowed: ["match", "size", "rotation", "calibration", "physical-size", "output", "axes",
                                                       "palm-rejection"])
            else { return nil }
            var rule = SurfaceRule(match: DeviceMatch(), surface: SurfaceConfiguration())
            if let match = fields["match"] { rule.match = deviceMatch(match, in: "'match' of \(context)") ?? DeviceMatch() }
            if let output = fields["output"] { rule.output = reader.string(output, "'output' in \(context)") }
            if let size = fields["size"] {
                rule.surface.size = pair(size, "'size' in \(context)") { self.positive($0, $1) }
            }
            if let physical = fields["physical-size"] {
                rule.surface.physicalSize = pair(physical, "'physical-size' in \(context)") {
                    self.reader.quantity($0, $1, .length, allowZero: false)
                }
            }
            if let rotation = fields["rotation"] {
                let value = reader.integer(rotation, "'rotation' in \(context)", in: Int.min...Int.max)
                if let value {
                    if let r = SurfaceRotation(rawValue: value) {
                        rule.surface.rotation = r
                    } else {
                        reader.error(rotation, "'rotation' in \(context) must be 0, 90, 180 or 270, got \(value)")
                    }
                }
            }
            if let axes = fields["axes"] { rule.surface.axes = positionAxes(axes, in: "'axes' in \(context)") }
            if let n = fields["palm-rejection"],
               let mode = enumValue(n, "'palm-rejection' in \(context)", PalmRejection.self) {
                rule.surface.palmRejection = mode
            }
            if let calibration = fields["calibration"], let items = reader.list(calibration, "'calibration' in \(context)") {
                if items.count != 6 {
                    reader.error(calibration,
                                 "'calibration' in \(context) needs 6 numbers (a b c d e f), got \(items.count)")
                } else {
                    let numbers = items.compactMap { reader.number($0, "'calibration' in \(context)") }
                    if numbers.count == 6 { rule.surface.calibration = numbers }
                }
            }
            return rule
        }
    }

    /// `axes: { x: ABS_Z, y: ABS_RX }`: the axes a device's position comes on (`PositionAxes`).
    func positionAxes(_ node: Node, in context: String) -> PositionAxes? {
        let errorsBefore = reader.errors.count
        guard let fields = reader.fields(node, in: context, allowed: ["x", "y"]) else { return nil }
        guard let xNode = fields["x"], let yNode = fields["y"] else {
            // A mistyped key was reported already: one mistake, one error.
            if reader.errors.count == errorsBefore {
                reader.error(node, "\(context) needs both 'x' and 'y', each an axis name like ABS_Z")
            }
            return nil
        }
        guard let x = axisCode(xNode, "'x' in \(context)"), let y = axisCode(yNode, "'y' in \(context)") else { return nil }
        guard x != y else {
            reader.error(yNode, "'x' and 'y' in \(context) name the same axis \(AbsoluteAxisNames.name(of: x))")
            return nil
        }
        let isMultitouch = { (code: EventCode) in code.rawValue >= EventCode.absMTSlot.rawValue }
        guard isMultitouch(x) == isMultitouch(y) else {
            reader.error(node, "\(context) mixes a multitouch axis (ABS_MT_*) with another: name two ABS_MT_* axes "
                         + "(the slots' position) or two others (the single-touch position)")
            return nil
        }
        return PositionAxes(x: x, y: y)
    }

    /// A kernel axis name (`ABS_Z`; any case), with did-you-mean for a slip.
    func axisCode(_ node: Node, _ what: String) -> EventCode? {
        guard let text = reader.string(node, what) else { return nil }
        let names = AbsoluteAxisNames.all.map(\.name)
        let upper = text.uppercased()
        if let code = AbsoluteAxisNames.code(named: upper) ?? AbsoluteAxisNames.code(named: "ABS_" + upper) { return code }
        var message = "unknown axis '\(text)' for \(what): expected a kernel axis name like ABS_Z or ABS_RX"
        if let guess = YAMLReader.suggestion(for: upper, among: names)
            ?? YAMLReader.suggestion(for: "ABS_" + upper, among: names) {
            message += " (did you mean '\(guess)'?)"
        }
        reader.error(node, message)
        return nil
    }

    func positive(_ node: Node, _ what: String) -> Double? {
        guard let value = reader.number(node, what) else { return nil }
        guard value > 0 else {
            reader.error(node, "\(what) must be more than zero, got \(YAMLReader.describe(node))")
            return nil
        }
        return value
    }

    /// `[a, b]`; `single` also allows one scalar for both.
    func pair(_ node: Node, _ what: String, single: Bool = false,
                      _ element: (Node, String) -> Double?) -> Point? {
        if single, case .scalar = node {
            return element(node, what).map { Point(x: $0, y: $0) }
        }
        guard let items = reader.list(node, what) else { return nil }
        guard items.count == 2 else {
            reader.error(node, "\(what) needs 2 items [width, height], got \(items.count)")
            return nil
        }
        guard let a = element(items[0], what), let b = element(items[1], what) else { return nil }
        return Point(x: a, y: b)
    }
}
