import GestureCore
import GestureYAML

/// Maps the YAML schema (docs/configuration.md) onto the model, then checks cross references.
final class SchemaReader {
    private let reader: YAMLReader

    /// A reference to an id, with the node it was written at.
    private struct Reference {
        var id: String
        var node: Node
    }

    /// A parsed gesture with the positions needed for cross checks.
    private struct GestureEntry {
        var spec: RecognizerSpec
        var idNode: Node
        var region: Reference?
        var requireToFail: [Reference]
        var simultaneousWith: [Reference]
    }

    private var regionIDs: [String: Node] = [:]
    private var regionOrder: [String] = []
    private var redirects: [(from: String, to: Reference)] = []
    private var gestures: [GestureEntry] = []
    private lazy var bindingReader = BindingSchemaReader(reader: reader)

    init(reader: YAMLReader) {
        self.reader = reader
    }

    static let topKeys = ["version", "devices", "surfaces", "regions", "gestures", "bindings", "socket"]

    /// The configuration, or nil when the top level is unusable (errors are in the reader).
    func configuration(_ root: Node?) -> Configuration? {
        guard let root, !YAMLReader.isNull(root) else {
            // An empty file: nothing configured, a bare root region.
            return Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []))
        }
        guard let top = reader.fields(root, in: "the configuration", allowed: Self.topKeys) else { return nil }

        if let version = top["version"] {
            _ = reader.integer(version, "'version'", in: 1...1)
        }
        var configuration = Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []))
        if let node = top["devices"] { configuration.devices = devices(node) }
        if let node = top["surfaces"] { configuration.surfaces = surfaces(node) }
        var rootRegion = RegionSpec(id: "screen")
        if let node = top["regions"] {
            if case .sequence = node {
                reader.error(node, "'regions' is the root region, a mapping with 'id' and 'children', not a list")
            } else {
                rootRegion = region(node, isRoot: true) ?? rootRegion
            }
        } else {
            regionIDs[rootRegion.id] = root
            regionOrder.append(rootRegion.id)
        }
        if let node = top["gestures"] { readGestures(node, rootID: rootRegion.id) }
        if let node = top["bindings"] { bindingReader.read(node) }
        if let node = top["socket"] { configuration.socket = socket(node) }

        checkReferences()
        configuration.bindings = bindingReader.finish(kinds: gestures.reduce(into: [:]) { $0[$1.spec.id] = $0[$1.spec.id] ?? $1.spec.kind })
        configuration.bindingConcurrency = bindingReader.concurrency
        configuration.engine = EngineConfiguration(root: rootRegion, recognizers: gestures.map(\.spec))
        return configuration
    }

    // MARK: Socket requests (hooks for RequestReader)

    /// A region subtree with gestures on it, sent by a client (`attach`), read with the file's rules.
    /// Gestures default to the subtree's root region; references resolve within the request.
    func attachment(regions: Node, gestures gestureList: Node?, parent: String) -> (RegionSpec, [RecognizerSpec])? {
        let root = region(regions, isRoot: false, parent: parent)
        if let gestureList, let root { readGestures(gestureList, rootID: root.id) }
        checkReferences()
        return root.map { ($0, gestures.map(\.spec)) }
    }

    /// The keys `update` may change on a region, read with the file's rules.
    func regionChange(id: String, frame: Node?, hidden: Node?, interactive: Node?) -> (RegionFrame?, Bool?, Bool?) {
        let context = "region '\(id)'"
        return (frame.flatMap { self.frame($0, context) }, hidden.flatMap { reader.bool($0, "'hidden' in \(context)") },
                interactive.flatMap { reader.bool($0, "'interactive' in \(context)") })
    }

    // MARK: Devices

    static let matchKeys = ["kind", "name", "vendor", "product", "vendor-product", "path"]

    private func devices(_ node: Node) -> DeviceSelection {
        var selection = DeviceSelection()
        guard let fields = reader.fields(node, in: "'devices'", allowed: ["include", "ignore", "grab"]) else {
            return selection
        }
        if let grab = fields["grab"] { selection.grab = reader.bool(grab, "'grab' in 'devices'") ?? false }
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

    private func deviceMatch(_ node: Node, in context: String) -> DeviceMatch? {
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
    private func hexID(_ node: Node, _ what: String) -> UInt16? {
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

    private func surfaces(_ node: Node) -> [SurfaceRule] {
        guard let items = reader.list(node, "'surfaces'") else { return [] }
        return items.enumerated().compactMap { index, item in
            let context = "surfaces[\(index)]"
            guard let fields = reader.fields(item, in: context,
                                             allowed: ["match", "size", "rotation", "calibration", "physical-size"])
            else { return nil }
            var rule = SurfaceRule(match: DeviceMatch(), surface: SurfaceConfiguration())
            if let match = fields["match"] { rule.match = deviceMatch(match, in: "'match' of \(context)") ?? DeviceMatch() }
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

    private func positive(_ node: Node, _ what: String) -> Double? {
        guard let value = reader.number(node, what) else { return nil }
        guard value > 0 else {
            reader.error(node, "\(what) must be more than zero, got \(YAMLReader.describe(node))")
            return nil
        }
        return value
    }

    /// `[a, b]`; `single` also allows one scalar for both.
    private func pair(_ node: Node, _ what: String, single: Bool = false,
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

    // MARK: Regions

    static let regionKeys = ["id", "frame", "children", "hidden", "interactive", "min-hit-size", "redirect", "control",
                             "publish-touches", "device-kinds"]

    private func region(_ node: Node, isRoot: Bool, parent: String? = nil, index: Int = 0) -> RegionSpec? {
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

    private func frame(_ node: Node, _ context: String) -> RegionFrame? {
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
    private func length(_ node: Node, _ what: String, nonNegative: Bool) -> Length? {
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

    // MARK: Gestures

    static let commonGestureKeys = ["id", "kind", "region", "enabled", "require-to-fail", "simultaneous-with",
                                    "cancels-touches", "delays-touches-began", "delays-touches-ended"]

    /// The parameter keys each kind accepts.
    static func parameterKeys(_ kind: RecognizerKind) -> [String] {
        switch kind {
        case .tap: ["taps", "fingers", "movement", "max-interval", "max-distance", "max-duration", "settle-time"]
        case .longPress: ["taps", "fingers", "min-duration", "movement", "max-interval", "max-distance", "settle-time"]
        case .pan: ["fingers", "min-fingers", "max-fingers", "threshold", "settle-time"]
        case .swipe: ["fingers", "directions", "min-distance", "max-duration", "angle-tolerance", "settle-time"]
        case .pinch: ["threshold", "settle-time"]
        case .rotation: ["threshold", "min-span", "settle-time"]
        case .edgePan: ["edges", "edge-zone", "threshold", "fingers", "min-fingers", "max-fingers", "settle-time"]
        }
    }

    private func readGestures(_ node: Node, rootID: String) {
        guard let items = reader.list(node, "'gestures'") else { return }
        var seen: [String: Node] = [:]
        for (index, item) in items.enumerated() {
            guard let entry = gesture(item, index: index, rootID: rootID) else { continue }
            if let first = seen[entry.spec.id] {
                reader.error(entry.idNode,
                             "duplicate gesture id '\(entry.spec.id)' (first defined at line \(first.mark?.line ?? 0))")
                continue
            }
            seen[entry.spec.id] = entry.idNode
            gestures.append(entry)
        }
    }

    private func gesture(_ node: Node, index: Int, rootID: String) -> GestureEntry? {
        guard case .mapping(let mapping) = node else {
            reader.error(node, "expected a mapping for gestures[\(index)], got \(YAMLReader.describe(node))")
            return nil
        }
        // Read id and kind first: the allowed keys depend on the kind.
        let pairs = reader.expandingMergeKeys(mapping, in: "gestures[\(index)]", report: false)
        func value(_ key: String) -> Node? { pairs.first { $0.0.scalar?.string == key }?.1 }
        guard let idNode = value("id") else {
            reader.error(node, "missing key 'id' in gestures[\(index)]")
            return nil
        }
        guard let id = reader.identifier(idNode, "gesture id") else { return nil }
        let context = "gesture '\(id)'"
        var kind: RecognizerKind?
        if let kindNode = value("kind") {
            kind = enumValue(kindNode, "'kind' in \(context)", RecognizerKind.self)
        } else {
            reader.error(node, "missing key 'kind' in \(context)")
        }
        // With no usable kind, keep the id (so references to it do not cascade into more errors)
        // and check the other keys against every kind's.
        let parameterKeys = kind.map(Self.parameterKeys) ?? RecognizerKind.allCases.flatMap(Self.parameterKeys)
        guard let fields = reader.fields(node, in: context, allowed: Self.commonGestureKeys + parameterKeys) else {
            return nil
        }

        var spec = RecognizerSpec(id: id, kind: kind ?? .tap, region: rootID)
        var entry = GestureEntry(spec: spec, idNode: idNode, region: nil, requireToFail: [], simultaneousWith: [])
        if let n = fields["region"], let region = reader.identifier(n, "'region' in \(context)") {
            spec.region = region
            entry.region = Reference(id: region, node: n)
        }
        if let n = fields["enabled"] { spec.enabled = reader.bool(n, "'enabled' in \(context)") ?? spec.enabled }
        if let n = fields["cancels-touches"] {
            spec.cancelsTouches = reader.bool(n, "'cancels-touches' in \(context)") ?? spec.cancelsTouches
        }
        if let n = fields["delays-touches-began"] {
            spec.delaysTouchesBegan = reader.bool(n, "'delays-touches-began' in \(context)") ?? spec.delaysTouchesBegan
        }
        if let n = fields["delays-touches-ended"] {
            spec.delaysTouchesEnded = reader.bool(n, "'delays-touches-ended' in \(context)") ?? spec.delaysTouchesEnded
        }
        entry.requireToFail = references(fields["require-to-fail"], "'require-to-fail' in \(context)")
        entry.simultaneousWith = references(fields["simultaneous-with"], "'simultaneous-with' in \(context)")
        spec.requireToFail = entry.requireToFail.map(\.id)
        spec.simultaneousWith = entry.simultaneousWith.map(\.id)
        if let kind { spec.parameters = parameters(fields, kind: kind, context: context) }
        entry.spec = spec
        return entry
    }

    private func references(_ node: Node?, _ what: String) -> [Reference] {
        guard let node, let items = reader.list(node, what, scalarAsList: true) else { return [] }
        return items.compactMap { item in reader.identifier(item, what).map { Reference(id: $0, node: item) } }
    }

    private func parameters(_ fields: Fields, kind: RecognizerKind, context: String) -> RecognizerParameters {
        var p = RecognizerParameters()
        func what(_ key: String) -> String { "'\(key)' in \(context)" }
        func mm(_ key: String, positive: Bool = false) -> Double? {
            fields[key].flatMap { reader.quantity($0, what(key), .length, allowZero: !positive) }
        }
        func ms(_ key: String, positive: Bool = false) -> Double? {
            fields[key].flatMap { reader.quantity($0, what(key), .duration, allowZero: !positive) }
        }
        func count(_ key: String, _ range: ClosedRange<Int>) -> Int? {
            fields[key].flatMap { reader.integer($0, what(key), in: range) }
        }

        p.settleTime = ms("settle-time") ?? p.settleTime
        switch kind {
        case .tap:
            p.taps = count("taps", 1...10) ?? p.taps
            p.fingers = count("fingers", 1...10) ?? p.fingers
            p.tapMovement = mm("movement") ?? p.tapMovement
            p.tapInterval = ms("max-interval", positive: true) ?? p.tapInterval
            p.tapDistance = mm("max-distance") ?? p.tapDistance
            p.tapDuration = ms("max-duration", positive: true) ?? p.tapDuration
        case .longPress:
            // The config counts full taps before the press, as UIKit's numberOfTapsRequired (none unless
            // asked); the engine's `taps` counts touch-downs including the press.
            p.taps = (count("taps", 0...10) ?? 0) + 1
            p.fingers = count("fingers", 1...10) ?? p.fingers
            p.minimumPressDuration = ms("min-duration") ?? p.minimumPressDuration
            p.pressMovement = mm("movement") ?? p.pressMovement
            p.tapInterval = ms("max-interval", positive: true) ?? p.tapInterval
            p.tapDistance = mm("max-distance") ?? p.tapDistance
        case .pan, .edgePan:
            readFingerRange(fields, &p, context: context)
            p.panThreshold = mm("threshold") ?? p.panThreshold
            if kind == .edgePan {
                if let n = fields["edges"] { p.edges = enumSet(n, what("edges"), Edge.self) ?? p.edges }
                p.edgeZone = mm("edge-zone", positive: true) ?? p.edgeZone
            }
        case .swipe:
            p.fingers = count("fingers", 1...10) ?? p.fingers
            if let n = fields["directions"] {
                let aliases: [String: Set<SwipeDirection>] = ["horizontal": [.left, .right], "vertical": [.up, .down]]
                p.directions = enumSet(n, what("directions"), SwipeDirection.self, aliases: aliases) ?? p.directions
            }
            p.minimumDistance = mm("min-distance") ?? p.minimumDistance
            p.maximumDuration = ms("max-duration", positive: true) ?? p.maximumDuration
            if let n = fields["angle-tolerance"], let angle = reader.quantity(n, what("angle-tolerance"), .angle) {
                if angle >= 90 {
                    reader.error(n, "\(what("angle-tolerance")) must be below 90 degrees, got \(YAMLReader.describe(n))")
                } else {
                    p.angleTolerance = angle
                }
            }
        case .pinch:
            p.pinchThreshold = mm("threshold") ?? p.pinchThreshold
        case .rotation:
            p.rotationMinimumSpan = mm("min-span") ?? p.rotationMinimumSpan
            if let n = fields["threshold"] {
                p.rotationThreshold = reader.quantity(n, what("threshold"), .angle) ?? p.rotationThreshold
            }
        }
        return p
    }

    /// `fingers: N` (exactly N) or `min-fingers` / `max-fingers`.
    private func readFingerRange(_ fields: Fields, _ p: inout RecognizerParameters, context: String) {
        if let n = fields["fingers"] {
            if fields.has("min-fingers") || fields.has("max-fingers") {
                reader.error(fields.keyNode("fingers"),
                             "'fingers' in \(context) cannot be combined with 'min-fingers' or 'max-fingers'")
                return
            }
            if let exact = reader.integer(n, "'fingers' in \(context)", in: 1...10) {
                p.minimumFingers = exact
                p.maximumFingers = exact
            }
            return
        }
        let minimum = fields["min-fingers"].flatMap { reader.integer($0, "'min-fingers' in \(context)", in: 1...10) }
        let maximum = fields["max-fingers"].flatMap { reader.integer($0, "'max-fingers' in \(context)", in: 1...10) }
        p.minimumFingers = minimum ?? p.minimumFingers
        p.maximumFingers = maximum ?? p.maximumFingers
        if p.minimumFingers > p.maximumFingers, let node = fields["max-fingers"] ?? fields["min-fingers"] {
            reader.error(node, "'max-fingers' (\(p.maximumFingers)) is below 'min-fingers' (\(p.minimumFingers)) in \(context)")
        }
    }

    // MARK: Enums

    /// A value of a string enum, with "did you mean".
    private func enumValue<E: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _ type: E.Type) -> E?
    where E.RawValue == String {
        guard let text = reader.string(node, what) else { return nil }
        if let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue).filter { $0 != "other" }
        var message = "bad value '\(text)' for \(what): expected one of \(names.joined(separator: ", "))"
        if let guess = YAMLReader.suggestion(for: text, among: names) { message += " (did you mean '\(guess)'?)" }
        reader.error(node, message)
        return nil
    }

    /// A non-empty set of enum values; "all" means every value, and `aliases` name other groups.
    private func enumSet<E: RawRepresentable & CaseIterable & Hashable>(_ node: Node, _ what: String, _ type: E.Type,
                                                                         aliases: [String: Set<E>] = [:]) -> Set<E>?
    where E.RawValue == String {
        guard let items = reader.list(node, what, scalarAsList: true) else { return nil }
        if items.count == 1, case .scalar(let s) = items[0] {
            if s.string == "all" { return Set(E.allCases) }
            if let group = aliases[s.string] { return group }
        }
        guard !items.isEmpty else {
            reader.error(node, "\(what) must not be empty")
            return nil
        }
        let values = items.compactMap { enumValue($0, what, E.self) }
        return values.count == items.count ? Set(values) : nil
    }

    // MARK: Socket

    static let socketKeys = ["path", "mode", "owner", "group", "allowed-uids", "queue-limit",
                             "max-regions-per-client", "max-gestures-per-client"]

    private func socket(_ node: Node) -> SocketSettings {
        var settings = SocketSettings()
        guard let fields = reader.fields(node, in: "'socket'", allowed: Self.socketKeys) else { return settings }
        if let n = fields["path"], let path = reader.string(n, "'path' in 'socket'") {
            if path.hasPrefix("/") {
                settings.path = path
            } else {
                reader.error(n, "'path' in 'socket' must be an absolute path, got '\(path)'")
            }
        }
        if let n = fields["mode"] {
            var text = ""
            if case .scalar(let s) = n { text = s.string.trimmingSpaces }
            if text.lowercased().hasPrefix("0o") { text = String(text.dropFirst(2)) }
            if let mode = UInt32(text, radix: 8), mode <= 0o777, !text.isEmpty {
                settings.mode = mode
            } else {
                reader.error(n, "expected an octal file mode like \"0660\" for 'mode' in 'socket', got \(YAMLReader.describe(n))")
            }
        }
        if let n = fields["owner"] { settings.owner = reader.string(n, "'owner' in 'socket'") }
        if let n = fields["group"] { settings.group = reader.string(n, "'group' in 'socket'") }
        if let n = fields["allowed-uids"], let items = reader.list(n, "'allowed-uids' in 'socket'", scalarAsList: true) {
            settings.allowedUIDs = items.compactMap {
                reader.integer($0, "'allowed-uids' in 'socket'", in: 0...Int(UInt32.max - 1)).map(UInt32.init)
            }
        }
        if let n = fields["queue-limit"] {
            settings.clientQueueLimit = reader.integer(n, "'queue-limit' in 'socket'", in: 1...1_000_000)
                ?? settings.clientQueueLimit
        }
        if let n = fields["max-regions-per-client"] {
            settings.clientRegionLimit = reader.integer(n, "'max-regions-per-client' in 'socket'", in: 0...4096)
                ?? settings.clientRegionLimit
        }
        if let n = fields["max-gestures-per-client"] {
            settings.clientGestureLimit = reader.integer(n, "'max-gestures-per-client' in 'socket'", in: 0...4096)
                ?? settings.clientGestureLimit
        }
        return settings
    }

    // MARK: Cross references

    private func checkReferences() {
        let regionNames = regionOrder
        func checkRegion(_ ref: Reference, _ what: String) -> Bool {
            guard regionIDs[ref.id] == nil else { return true }
            var message = "unknown region '\(ref.id)' in \(what)"
            if let guess = YAMLReader.suggestion(for: ref.id, among: regionNames) { message += " (did you mean '\(guess)'?)" }
            reader.error(ref.node, message)
            return false
        }
        for (from, to) in redirects {
            if checkRegion(to, "'redirect' of region '\(from)'"), to.id == from {
                reader.error(to.node, "region '\(from)' cannot redirect to itself")
            }
        }
        checkRedirectCycles()

        let gestureNames = gestures.map(\.spec.id)
        let byID = Dictionary(gestures.map { ($0.spec.id, $0) }, uniquingKeysWith: { first, _ in first })
        func checkGesture(_ ref: Reference, _ what: String) -> Bool {
            guard byID[ref.id] == nil else { return true }
            var message = "unknown gesture '\(ref.id)' in \(what)"
            if let guess = YAMLReader.suggestion(for: ref.id, among: gestureNames) { message += " (did you mean '\(guess)'?)" }
            reader.error(ref.node, message)
            return false
        }
        for entry in gestures {
            let context = "gesture '\(entry.spec.id)'"
            if let region = entry.region { _ = checkRegion(region, "'region' of \(context)") }
            for ref in entry.requireToFail where checkGesture(ref, "'require-to-fail' of \(context)") {
                if ref.id == entry.spec.id { reader.error(ref.node, "\(context) cannot require itself to fail") }
            }
            for ref in entry.simultaneousWith where checkGesture(ref, "'simultaneous-with' of \(context)") {
                if ref.id == entry.spec.id { reader.error(ref.node, "\(context) cannot be simultaneous with itself") }
            }
        }
        checkRequireToFailCycles(byID)
        for ref in bindingReader.gestureReferences { _ = checkGesture(Reference(id: ref.id, node: ref.node), "binding") }
    }

    private func checkRedirectCycles() {
        let targets = Dictionary(redirects.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        var reported: Set<String> = []
        for (start, _) in redirects where !reported.contains(start) {
            var path = [start]
            var current = start
            while let next = targets[current], regionIDs[next.id] != nil, next.id != current {
                if let loopStart = path.firstIndex(of: next.id) {
                    let cycle = path[loopStart...]
                    if cycle.allSatisfy({ !reported.contains($0) }) {
                        reported.formUnion(cycle)
                        reader.error(next.node, "redirect cycle: \((cycle + [next.id]).joined(separator: " → "))")
                    }
                    break
                }
                path.append(next.id)
                current = next.id
            }
        }
    }

    /// Reports each require-to-fail cycle once, at the reference that closes it.
    private func checkRequireToFailCycles(_ byID: [String: GestureEntry]) {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var stack: [String] = []
        func visit(_ id: String) {
            marks[id] = .visiting
            stack.append(id)
            for ref in byID[id]?.requireToFail ?? [] where byID[ref.id] != nil && ref.id != id {
                switch marks[ref.id] {
                case .visiting:
                    let start = stack.firstIndex(of: ref.id) ?? 0
                    let cycle = stack[start...] + [ref.id]
                    reader.error(ref.node, "require-to-fail cycle: \(cycle.joined(separator: " → ")) (each waits for the next to fail)")
                case .done:
                    break
                case nil:
                    visit(ref.id)
                }
            }
            stack.removeLast()
            marks[id] = .done
        }
        for entry in gestures where marks[entry.spec.id] == nil {
            visit(entry.spec.id)
        }
    }
}
