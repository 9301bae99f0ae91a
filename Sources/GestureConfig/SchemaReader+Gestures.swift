import GestureCore
import GestureYAML

/// `gestures`: recognizers, their kinds and parameters with units, and enum values.
extension SchemaReader {
    // MARK: Gestures

    static let commonGestureKeys = ["id", "kind", "region", "enabled", "require-to-fail", "simultaneous-with",
                                    "cancels-touches", "delays-touches-began", "delays-touches-ended",
                                    "touch-types", "buttons"]

    /// The parameter keys each kind accepts.
    static func parameterKeys(_ kind: RecognizerKind) -> [String] {
        switch kind {
        case .tap: ["taps", "fingers", "movement", "max-interval", "max-distance", "max-duration", "settle-time"]
        case .longPress: ["taps", "fingers", "min-duration", "movement", "max-interval", "max-distance", "settle-time"]
        case .pan: ["fingers", "min-fingers", "max-fingers", "threshold", "settle-time"]
        case .swipe: ["fingers", "directions", "style", "begin-distance", "min-distance", "max-duration",
                      "angle-tolerance", "settle-time"]
        case .pinch: ["threshold", "settle-time"]
        case .rotation: ["threshold", "min-span", "settle-time"]
        case .edgePan: ["edges", "edge-zone", "threshold", "fingers", "min-fingers", "max-fingers", "settle-time"]
        }
    }

    /// Why `key`, a parameter of other kinds, does not apply to `kind`; nil when no kind has it.
    static func misplacedKey(_ key: String, kind: RecognizerKind) -> String? {
        if ["fingers", "min-fingers", "max-fingers"].contains(key), kind == .pinch || kind == .rotation {
            return "a \(kind.rawValue) is always two fingers, so it takes no '\(key)'"
        }
        let kinds = RecognizerKind.allCases.filter { parameterKeys($0).contains(key) }
        guard !kinds.isEmpty else { return nil }
        return "'\(key)' is a parameter of \(kinds.map(\.rawValue).joined(separator: ", ")) gestures, not of a "
            + "\(kind.rawValue): this kind takes \(parameterKeys(kind).joined(separator: ", "))"
    }

    /// Where a key written in a gesture belongs when it is a binding's (Touchégg puts the action in
    /// the gesture; here a binding names the gesture); nil for other keys.
    static func keyOfAnotherSection(_ key: String, gesture id: String) -> String? {
        let word = ConfigWords.compact(key)
        if word == "bindings" || word == "binding" {
            return "'bindings' is a section of its own, at the top level of the file (not indented), and each of "
                + "its entries names its gesture: bindings: [{ gesture: \(id), command: ... }]"
        }
        if word == "states" || word == "state" {
            return "'states' belongs to a binding (the states that fire it), not to a gesture: "
                + "bindings: [{ gesture: \(id), states: [...], command: ... }]"
        }
        let bindingKey = BindingSchemaReader.keys.contains(key) && key != "gesture" ? key : ConfigWords.bindingKeys[word]
        guard let bindingKey, bindingKey != "gesture" && bindingKey != "states" else { return nil }
        if bindingKey == "action" {
            return "what a gesture does goes in a binding, not in the gesture: under the top-level 'bindings', "
                + "write { gesture: \(id), command: ... } (or, for a window rule's gesture, action: close-window ...)"
        }
        if bindingKey == "command" || bindingKey.hasPrefix("keys") {
            return "what a gesture does goes in a binding, not in the gesture: under the top-level 'bindings', "
                + "write { gesture: \(id), \(bindingKey): ... }"
        }
        return "'\(bindingKey)' belongs to a binding, not to a gesture: bindings: [{ gesture: \(id), \(bindingKey): ..., command: ... }]"
    }

    func readGestures(_ node: Node, rootID: String) {
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

    func gesture(_ node: Node, index: Int, rootID: String) -> GestureEntry? {
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
            kind = enumValue(kindNode, "'kind' in \(context)", RecognizerKind.self, words: ConfigWords.kinds,
                             phrase: ConfigWords.kindPhrase)
        } else {
            reader.error(node, "missing key 'kind' in \(context)")
        }
        // With no usable kind, keep the id (so references to it do not cascade into more errors)
        // and check the other keys against every kind's.
        let parameterKeys = kind.map(Self.parameterKeys) ?? RecognizerKind.allCases.flatMap(Self.parameterKeys)
        guard let fields = reader.fields(node, in: context, allowed: Self.commonGestureKeys + parameterKeys,
                                         explain: { key in
                                             Self.keyOfAnotherSection(key, gesture: id)
                                                 ?? kind.flatMap { Self.misplacedKey(key, kind: $0) }
                                         },
                                         words: kind.map(ConfigWords.gestureKeys) ?? [:]) else {
            return nil
        }

        var spec = RecognizerSpec(id: id, kind: kind ?? .tap, region: rootID)
        var entry = GestureEntry(spec: spec, idNode: idNode, region: nil, requireToFail: [], simultaneousWith: [],
                                 kindKnown: kind != nil)
        if let n = fields["region"], let region = reader.identifier(n, "'region' in \(context)") {
            spec.region = region
            entry.region = Reference(id: region, node: n)
        }
        if let n = fields["enabled"] { spec.enabled = reader.bool(n, "'enabled' in \(context)") ?? spec.enabled }
        if let n = fields["cancels-touches"] {
            spec.cancelsTouches = reader.bool(n, "'cancels-touches' in \(context)") ?? spec.cancelsTouches
            entry.cancelsGiven = spec.cancelsTouches
        }
        if let n = fields["delays-touches-began"] {
            spec.delaysTouchesBegan = reader.bool(n, "'delays-touches-began' in \(context)") ?? spec.delaysTouchesBegan
            entry.delaysBeganGiven = spec.delaysTouchesBegan
        }
        if let n = fields["delays-touches-ended"] {
            spec.delaysTouchesEnded = reader.bool(n, "'delays-touches-ended' in \(context)") ?? spec.delaysTouchesEnded
        }
        if let n = fields["touch-types"],
           let types = enumSet(n, "'touch-types' in \(context)", TouchType.self, aliases: ["all": Set(TouchType.allCases)]) {
            spec.touchTypes = types.reduce(into: TouchTypes()) { $0.insert(TouchTypes($1)) }
        }
        if let n = fields["buttons"],
           let buttons = enumSet(n, "'buttons' in \(context)", StylusButtonName.self) {
            spec.buttons = buttons.reduce(into: StylusButtons()) { $0.insert(StylusButtons(name: $1.rawValue) ?? []) }
            if !spec.touchTypes.contains(.pen) && !spec.touchTypes.contains(.eraser) {
                reader.error(n, "'buttons' in \(context) are a pen's barrel buttons, and this gesture takes only "
                    + "fingers: add 'touch-types: [pen]'")
            }
        }
        entry.requireToFail = references(fields["require-to-fail"], "'require-to-fail' in \(context)")
        entry.simultaneousWith = references(fields["simultaneous-with"], "'simultaneous-with' in \(context)")
        spec.requireToFail = entry.requireToFail.map(\.id)
        spec.simultaneousWith = entry.simultaneousWith.map(\.id)
        if let kind { spec.parameters = parameters(fields, kind: kind, context: context) }
        entry.spec = spec
        return entry
    }

    func references(_ node: Node?, _ what: String) -> [Reference] {
        guard let node, let items = reader.list(node, what, scalarAsList: true) else { return [] }
        return items.compactMap { item in reader.identifier(item, what).map { Reference(id: $0, node: item) } }
    }

    func parameters(_ fields: Fields, kind: RecognizerKind, context: String) -> RecognizerParameters {
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
                if let n = fields["edges"] {
                    p.edges = enumSet(n, what("edges"), Edge.self, words: ConfigWords.edges) ?? p.edges
                }
                p.edgeZone = mm("edge-zone", positive: true) ?? p.edgeZone
            }
        case .swipe:
            p.fingers = count("fingers", 1...10) ?? p.fingers
            if let n = fields["directions"] {
                let aliases: [String: Set<SwipeDirection>] = ["horizontal": [.left, .right], "vertical": [.up, .down]]
                p.directions = enumSet(n, what("directions"), SwipeDirection.self, aliases: aliases,
                                       words: ConfigWords.directions) ?? p.directions
            }
            if let n = fields["style"] { p.swipeStyle = enumValue(n, what("style"), SwipeStyle.self) ?? p.swipeStyle }
            p.swipeBeginDistance = mm("begin-distance", positive: true) ?? p.swipeBeginDistance
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
    func readFingerRange(_ fields: Fields, _ p: inout RecognizerParameters, context: String) {
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

    /// A value of a string enum, with "did you mean" (`words`: ConfigWords). `groups`: the names of
    /// sets also accepted where this value is read (`all`, `horizontal`), listed with the values.
    /// `phrase`: for a value written as several words (`three-finger-swipe`), the keys meant.
    func enumValue<E: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _ type: E.Type,
                                                       words: [String: String] = [:], groups: [String] = [],
                                                       phrase: (String) -> String? = { _ in nil }) -> E?
    where E.RawValue == String {
        guard let text = reader.string(node, what) else { return nil }
        if let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue).filter { $0 != "other" } + groups
        var message = "bad value '\(text)' for \(what): expected one of \(names.joined(separator: ", "))"
        let word = ConfigWords.compact(text)
        let oneWord = names.contains { ConfigWords.compact($0) == word } || words[word] != nil
        if !oneWord, let keys = phrase(text) {
            message += " (did you mean '\(keys)'?)"
        } else if let guess = ConfigWords.suggestion(for: text, among: names, words: words) {
            message += " (did you mean '\(guess)'?)"
        }
        reader.error(node, message)
        return nil
    }

    /// A non-empty set of enum values; "all" means every value, and `aliases` name other groups
    /// (each may be an item of a list too).
    func enumSet<E: RawRepresentable & CaseIterable & Hashable>(_ node: Node, _ what: String, _ type: E.Type,
                                                                aliases: [String: Set<E>] = [:],
                                                                words: [String: String] = [:]) -> Set<E>?
    where E.RawValue == String {
        guard let items = reader.list(node, what, scalarAsList: true) else { return nil }
        guard !items.isEmpty else {
            reader.error(node, "\(what) must not be empty")
            return nil
        }
        let groups = aliases.merging(["all": Set(E.allCases)]) { own, _ in own }
        let groupNames = aliases.keys.sorted() + ["all"]
        var values: Set<E> = []
        var ok = true
        for item in items {
            if case .scalar(let s) = item, let group = groups[s.string] {
                values.formUnion(group)
            } else if let value = enumValue(item, what, E.self, words: words, groups: groupNames) {
                values.insert(value)
            } else {
                ok = false
            }
        }
        return ok ? values : nil
    }
}

/// The words of `buttons:` (`StylusButtons`), as the kernel names the codes (BTN_STYLUS …).
enum StylusButtonName: String, CaseIterable, Hashable {
    case stylus, stylus2, stylus3
}
