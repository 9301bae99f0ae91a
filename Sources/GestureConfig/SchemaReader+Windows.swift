import GestureCore
import GestureYAML

/// `windows` (window rules, docs/desktop.md) and `desktop` (how touchpads pick their window).
extension SchemaReader {
    // MARK: Windows

    static let windowRuleKeys = ["id", "match", "disable", "gestures"]
    static let windowMatchKeys = ["app", "title", "floating", "fullscreen"]

    /// A window rule as read, with the positions needed for cross checks.
    struct WindowRuleEntry {
        var rule: WindowRule
        var idNode: Node
        var disable: [Reference]
        var gestures: [GestureEntry]
    }

    func windowRules(_ node: Node) {
        guard let items = reader.list(node, "'windows'") else { return }
        for (index, item) in items.enumerated() {
            let placeholder = "windows[\(index)]"
            guard let fields = reader.fields(item, in: placeholder, allowed: Self.windowRuleKeys) else { continue }
            guard let idNode = fields["id"] else {
                reader.error(item, "missing key 'id' in \(placeholder)")
                continue
            }
            guard let id = reader.identifier(idNode, "window rule id") else { continue }
            let context = "window rule '\(id)'"
            if DesktopRegions.isDesktopRegion(id) {
                reader.error(idNode, "\(context): ids starting with 'output:' or 'window:' name the desktop's regions")
            }
            var entry = WindowRuleEntry(rule: WindowRule(id: id), idNode: idNode, disable: [], gestures: [])
            if let match = fields["match"] { entry.rule.match = windowMatch(match, context) }
            if let disable = fields["disable"], let list = reader.list(disable, "'disable' in \(context)", scalarAsList: true) {
                for n in list {
                    guard let name = reader.string(n, "'disable' in \(context)") else { continue }
                    entry.rule.disable.append(name)
                    if name != "*" { entry.disable.append(Reference(id: name, node: n)) }
                }
            }
            if let list = fields["gestures"], let gestureItems = reader.list(list, "'gestures' of \(context)") {
                for (k, g) in gestureItems.enumerated() {
                    guard var gesture = gesture(g, index: k, rootID: DesktopRegions.windowPrefix + "*") else { continue }
                    if let region = gesture.region {
                        reader.error(region.node, "gesture '\(gesture.spec.id)' of \(context) sits on every matching "
                            + "window: remove 'region'")
                        gesture.region = nil
                    }
                    entry.gestures.append(gesture)
                }
            }
            windowEntries.append(entry)
        }
    }

    func windowMatch(_ node: Node, _ context: String) -> WindowMatch {
        var match = WindowMatch()
        guard let fields = reader.fields(node, in: "'match' of \(context)", allowed: Self.windowMatchKeys,
                                         explain: Self.whyNotAMatchKey) else { return match }
        if let n = fields["app"], let globs = reader.list(n, "'app' in the match of \(context)", scalarAsList: true) {
            match.apps = globs.compactMap { reader.string($0, "'app' in the match of \(context)") }
        }
        if let n = fields["title"] { match.title = reader.string(n, "'title' in the match of \(context)") }
        if let n = fields["floating"] { match.floating = reader.bool(n, "'floating' in the match of \(context)") }
        if let n = fields["fullscreen"] { match.fullscreen = reader.bool(n, "'fullscreen' in the match of \(context)") }
        return match
    }

    /// Keys other window tools match on, and the key that does it here.
    static func whyNotAMatchKey(_ key: String) -> String? {
        switch ConfigWords.compact(key) {
        case "class", "wmclass", "windowclass", "appid", "application", "instance":
            return "'app' matches the Wayland app id and the X11 class (WM_CLASS) both: write app: \"firefox\" "
                + "(a glob, or a list of globs: app: [firefox, chromium])"
        default:
            return nil
        }
    }

    /// `desktop: { touchpad-window: focused | pointer }`.
    func desktopSettings(_ node: Node) -> TouchpadWindow? {
        guard let fields = reader.fields(node, in: "'desktop'", allowed: ["touchpad-window"]) else { return nil }
        return fields["touchpad-window"].flatMap { enumValue($0, "'touchpad-window' in 'desktop'", TouchpadWindow.self) }
    }

    /// Rule ids are unique among rules, regions and gestures; a rule's gestures have ids unique
    /// config-wide and reference only gestures of the same rule; `disable` names screen gestures.
    func checkWindowReferences() {
        let screenGestures = gestures.map(\.spec.id)
        var taken = Set(screenGestures)
        var ruleIDs: [String: Node] = [:]
        for entry in windowEntries {
            let id = entry.rule.id
            if let first = ruleIDs[id] ?? regionIDs[id] ?? gestures.first(where: { $0.spec.id == id })?.idNode {
                reader.error(entry.idNode, "duplicate id '\(id)': window rule ids are unique among rules, regions and "
                    + "gestures (first defined at line \(first.mark?.line ?? 0))")
            }
            ruleIDs[id] = ruleIDs[id] ?? entry.idNode
            for ref in entry.disable where !screenGestures.contains(ref.id) {
                var message = "unknown gesture '\(ref.id)' in 'disable' of window rule '\(id)'"
                if let guess = YAMLReader.suggestion(for: ref.id, among: screenGestures) {
                    message += " (did you mean '\(guess)'?)"
                } else {
                    message += ": 'disable' names gestures under 'gestures' (or \"*\" for all of them)"
                }
                reader.error(ref.node, message)
            }
            let own = entry.gestures.map(\.spec.id)
            for g in entry.gestures {
                if !taken.insert(g.spec.id).inserted {
                    reader.error(g.idNode, "duplicate gesture id '\(g.spec.id)': gesture ids are unique in the whole config")
                }
                let context = "gesture '\(g.spec.id)' of window rule '\(id)'"
                for ref in g.requireToFail + g.simultaneousWith where !own.contains(ref.id) || ref.id == g.spec.id {
                    var message = ref.id == g.spec.id ? "\(context) cannot name itself"
                        : "unknown gesture '\(ref.id)' in \(context): a window rule's gesture names gestures of the same rule"
                    if ref.id != g.spec.id, let guess = YAMLReader.suggestion(for: ref.id, among: own) {
                        message += " (did you mean '\(guess)'?)"
                    }
                    reader.error(ref.node, message)
                }
            }
        }
        let windowGestures = Set(windowEntries.flatMap { $0.gestures.map(\.spec.id) })
        for entry in gestures {
            for ref in entry.requireToFail + entry.simultaneousWith where windowGestures.contains(ref.id) {
                reader.error(ref.node, "gesture '\(entry.spec.id)' names '\(ref.id)', a window rule's gesture: "
                    + "the window keeps its gestures already (docs/desktop.md)")
            }
        }
    }
}
