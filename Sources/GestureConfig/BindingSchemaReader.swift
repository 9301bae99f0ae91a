import GestureCore
import GestureYAML

/// Reads `bindings` (docs/configuration.md#bindings): commands, key combinations, steps, rate
/// limits. What depends on the gestures (their ids, the states and progress their kind reports) is
/// checked in `finish(kinds:)`, once every gesture has been read.
final class BindingSchemaReader {
    private let reader: YAMLReader

    static let keys = ["gesture", "states", "command", "keys", "keys-increase", "keys-decrease", "every", "axis",
                       "cooldown", "timeout", "action"]
    static let states: [GestureState] = [.recognized, .began, .changed, .ended, .cancelled]

    /// A binding as read, with what `finish` still has to check against its gesture.
    private struct Entry {
        var binding: Binding
        var context: String
        var states: [Node]
        var every: (node: Node, step: StepText)?
        var axis: (node: Node, axis: StepAxis)?
        var actionNode: Node?
    }

    /// `every` as written, before the gesture's kind says what it measures.
    enum StepText: Equatable {
        case plain(Double)
        case length(Double)
        case percent(Double)
        case angle(Double)
    }

    private var entries: [Entry] = []
    /// The gesture each binding names, with its node (SchemaReader reports unknown ids).
    private(set) var gestureReferences: [(id: String, node: Node, binding: String)] = []
    private(set) var concurrency = Configuration.defaultBindingConcurrency

    init(reader: YAMLReader) {
        self.reader = reader
    }

    /// Reads the short form (a list) or the long form (`max-concurrent`, `commands`).
    func read(_ node: Node) {
        var listNode: Node? = node
        if case .mapping = node {
            guard let fields = reader.fields(node, in: "'bindings'", allowed: ["max-concurrent", "commands"]) else { return }
            if let n = fields["max-concurrent"] {
                concurrency = reader.integer(n, "'max-concurrent' in 'bindings'", in: 1...1024) ?? concurrency
            }
            listNode = fields["commands"]
        }
        guard let listNode, let items = reader.list(listNode, "'bindings'") else { return }
        for (index, item) in items.enumerated() {
            if let entry = binding(item, index: index) { entries.append(entry) }
        }
    }

    private func binding(_ node: Node, index: Int) -> Entry? {
        let context = "binding \(index + 1)"
        guard let fields = reader.fields(node, in: context, allowed: Self.keys, words: ConfigWords.bindingKeys) else {
            return nil
        }
        guard let gestureNode = fields["gesture"] else {
            reader.error(node, "missing key 'gesture' in \(context)")
            return nil
        }
        guard let gesture = reader.identifier(gestureNode, "'gesture' in \(context)") else { return nil }
        let line = node.mark.map { " (line \($0.line))" } ?? ""
        gestureReferences.append((gesture, gestureNode, context + line))
        var binding = Binding(gesture: gesture)
        var entry = Entry(binding: binding, context: context, states: [])

        if let n = fields["command"] { binding.command = reader.string(n, "'command' in \(context)") }
        let keyReader = KeySequenceReader(reader: reader)
        if let n = fields["keys"] { binding.keys = keyReader.combos(n, "'keys' of \(context)") ?? [] }
        if let n = fields["keys-increase"] {
            binding.keysIncrease = keyReader.combos(n, "'keys-increase' of \(context)") ?? []
        }
        if let n = fields["keys-decrease"] {
            binding.keysDecrease = keyReader.combos(n, "'keys-decrease' of \(context)") ?? []
        }
        if let n = fields["action"], let text = reader.string(n, "'action' in \(context)") {
            entry.actionNode = n
            if let action = WindowAction(text: text) {
                binding.action = action
            } else {
                reader.error(n, "bad value '\(text)' for 'action' in \(context): expected one of "
                             + WindowAction.names.joined(separator: ", ") + " (N a workspace number from 1); "
                             + "a shell command goes in 'command'")
            }
            if let every = fields.keyNode("every") {
                reader.error(every, "'every' does not apply to an 'action' (\(context) acts once on its window): remove it")
            }
        }
        let actions = ["command", "keys", "keys-increase", "keys-decrease", "action"]
        // A command under another tool's name (`exec:`) has its error already, with the key meant.
        let actionUnderAnotherName = Self.writtenKeys(of: node).contains {
            ["command", "keys"].contains(ConfigWords.bindingKeys[ConfigWords.compact($0)] ?? "")
        }
        if !actions.contains(where: fields.has) && !actionUnderAnotherName {
            reader.error(node, "missing key 'command' or 'keys' in \(context): a binding runs a command, sends keys, "
                         + "or both (or acts on its window: 'action')")
        }
        if fields.has("keys"), let other = ["keys-increase", "keys-decrease"].first(where: fields.has) {
            reader.error(fields.keyNode(other), "'keys' and '\(other)' cannot be combined in \(context): 'keys' is sent "
                         + "on every step, 'keys-increase' / 'keys-decrease' by the step's direction")
        }

        if let n = fields["every"] {
            if let step = stepText(n, "'every' in \(context)") { entry.every = (n, step) }
            if let states = fields.keyNode("states") {
                reader.error(states, "'states' does not apply to a stepped binding (\(context) fires on every step "
                             + "of the gesture's progress): remove it")
            }
        } else {
            for key in ["keys-increase", "keys-decrease", "axis"] where fields.has(key) {
                reader.error(fields.keyNode(key), "'\(key)' in \(context) needs 'every': it belongs to a stepped binding")
            }
        }
        if let n = fields["axis"], fields.has("every") {
            if let text = reader.string(n, "'axis' in \(context)") {
                if let axis = StepAxis(rawValue: text) {
                    entry.axis = (n, axis)
                } else {
                    reader.error(n, "bad value '\(text)' for 'axis' in \(context): expected x or y")
                }
            }
        }
        if let n = fields["cooldown"] {
            binding.cooldown = reader.quantity(n, "'cooldown' in \(context)", .duration) ?? binding.cooldown
        }
        if let n = fields["timeout"] {
            binding.timeout = reader.quantity(n, "'timeout' in \(context)", .duration, allowZero: false) ?? binding.timeout
        }
        if let n = fields["states"], !fields.has("every"),
           let items = reader.list(n, "'states' in \(context)", scalarAsList: true) {
            for item in items {
                guard let text = reader.string(item, "'states' in \(context)") else { continue }
                if let state = GestureState(rawValue: text), Self.states.contains(state) {
                    binding.states.insert(state)
                } else {
                    let names = Self.states.map(\.rawValue)
                    var message = "bad value '\(text)' for 'states' in \(context): expected one of \(names.joined(separator: ", "))"
                    if let guess = ConfigWords.suggestion(for: text, among: names, words: ConfigWords.states) {
                        message += " (did you mean '\(guess)'?)"
                    }
                    reader.error(item, message)
                }
            }
            if items.isEmpty { reader.error(n, "'states' in \(context) must not be empty") }
            entry.states = items
        }
        entry.binding = binding
        return entry
    }

    /// The keys written in a binding's mapping (none for another node).
    private static func writtenKeys(of node: Node) -> [String] {
        guard case .mapping(let mapping) = node else { return [] }
        return mapping.compactMap { $0.key.scalar?.string }
    }

    /// `8mm`, `10%`, `15deg`, or a bare number (refused in `measure`, with the unit the gesture's kind takes).
    private func stepText(_ node: Node, _ what: String) -> StepText? {
        let expectation = "a step like 8mm (pan), 10% (pinch) or 15deg (rotation)"
        guard case .scalar(let s) = node, !YAMLReader.isNull(node) else {
            reader.error(node, "expected \(expectation) for \(what), got \(YAMLReader.describe(node))")
            return nil
        }
        let text = s.string.trimmingSpaces
        let step: StepText
        if let plain = Double(text), plain.isFinite {
            step = .plain(plain)
        } else if text.hasSuffix("%"), let p = Double(String(text.dropLast()).trimmingSpaces), p.isFinite {
            step = .percent(p)
        } else if let mm = Quantity.length.parse(text) {
            step = .length(mm)
        } else if let degrees = Quantity.angle.parse(text) {
            step = .angle(degrees)
        } else {
            reader.error(node, "expected \(expectation) for \(what), got '\(text)'")
            return nil
        }
        switch step {
        case .plain(let v), .length(let v), .percent(let v), .angle(let v):
            guard v > 0 else {
                reader.error(node, "\(what) must be more than zero, got '\(text)'")
                return nil
            }
        }
        return step
    }

    /// Checks each binding against its gesture's kind (states it reports, progress it has) and
    /// returns the bindings. Bindings of unknown gestures are returned unchecked (SchemaReader has
    /// reported them).
    func finish(kinds: [String: RecognizerKind], windowGestures: Set<String> = []) -> [Binding] {
        entries.map { entry in
            var binding = entry.binding
            guard let kind = kinds[binding.gesture] else { return binding }
            if binding.action != nil, !windowGestures.contains(binding.gesture), let node = entry.actionNode {
                reader.error(node, "'action' in \(entry.context) acts on the window of its gesture, and '\(binding.gesture)' is "
                             + "a screen gesture: define it under a window rule ('windows:', a rule with no 'match' takes every window)")
            }
            for item in entry.states {
                guard case .scalar(let s) = item, let state = GestureState(rawValue: s.string) else { continue }
                // A swipe is discrete (recognized) or continuous (began … ended) by device: any state fits.
                let fits = kind == .swipe || (kind.isDiscrete ? state == .recognized : state != .recognized)
                if !fits {
                    let hint = kind.isDiscrete ? "it is only ever recognized" : "use began, changed, ended or cancelled"
                    reader.error(item, "a \(kind.rawValue) gesture ('\(binding.gesture)') never reports state '\(s.string)': \(hint)")
                }
            }
            if let (node, text) = entry.every {
                binding.every = measure(text, node: node, kind: kind, gesture: binding.gesture, context: entry.context)
            }
            if let (node, _) = entry.axis, kind != .pan && kind != .edgePan && kind != .swipe {
                reader.error(node, "'axis' in \(entry.context) applies to pan and edge-pan steps, not to a "
                             + "\(kind.rawValue) gesture ('\(binding.gesture)')")
            } else if let (_, axis) = entry.axis, case .distance(let mm, _) = binding.every {
                binding.every = .distance(mm: mm, axis: axis)
            }
            return binding
        }
    }

    /// `8` for 8.0, `2.5` for 2.5.
    static func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    /// What `every` measures on a gesture of this kind, or nil after an error.
    private func measure(_ text: StepText, node: Node, kind: RecognizerKind, gesture: String,
                         context: String) -> StepMeasure? {
        let what = "'every' in \(context)"
        switch (kind, text) {
        case (.pan, .length(let mm)), (.edgePan, .length(let mm)), (.swipe, .length(let mm)):
            return .distance(mm: mm, axis: nil)
        case (.pinch, .percent(let p)):
            return .scale(ratio: p / 100)
        case (.rotation, .angle(let degrees)):
            return .angle(degrees: degrees)
        case (.pan, .plain(let v)), (.edgePan, .plain(let v)):
            reader.error(node, "\(what) needs a unit, got a bare \(Self.text(v)): write \(Self.text(v))mm (a \(kind.rawValue) "
                         + "gesture ('\(gesture)') steps through its translation)")
        case (.rotation, .plain(let v)):
            reader.error(node, "\(what) needs a unit, got a bare \(Self.text(v)): write \(Self.text(v))deg (a rotation "
                         + "('\(gesture)') steps through its angle)")
        case (.pinch, .plain(let v)):
            reader.error(node, "\(what) needs a unit, got a bare \(Self.text(v)): write \(Self.text(v))% (a pinch "
                         + "('\(gesture)') steps through its scale)")
        case (.pan, _), (.edgePan, _):
            reader.error(node, "\(what) steps through a \(kind.rawValue) gesture's translation ('\(gesture)'): "
                         + "write a length like 8mm")
        case (.pinch, _):
            reader.error(node, "\(what) steps through a pinch's scale ('\(gesture)'): write a percentage like 10%")
        case (.rotation, _):
            reader.error(node, "\(what) steps through a rotation's angle ('\(gesture)'): write an angle like 15deg")
        case (.swipe, _):
            reader.error(node, "\(what) steps through a continuous swipe's translation ('\(gesture)'): "
                         + "write a length like 20mm")
        case (.tap, _), (.longPress, _):
            reader.error(node, "a \(kind.rawValue) gesture ('\(gesture)') has no continuous progress to step through: "
                         + "\(what) works with pan, edge-pan, continuous swipe, pinch and rotation")
        }
        return nil
    }
}

/// Reads key combinations: `volumeup` (one key), `[leftctrl, leftalt, right]` (one combination),
/// or `[[leftmeta, pageup], enter]` (several, in order; a plain name is a one-key combination).
struct KeySequenceReader {
    let reader: YAMLReader

    func combos(_ node: Node, _ what: String) -> [KeyCombo]? {
        switch node {
        case .scalar:
            return key(node, what).map { [KeyCombo([$0])] }
        case .sequence(let sequence):
            let items = Array(sequence)
            guard !items.isEmpty else {
                reader.error(node, "\(what) must not be empty")
                return nil
            }
            let nested = items.contains { if case .sequence = $0 { return true } else { return false } }
            if !nested { return combo(items, node: node, what).map { [$0] } }
            var result: [KeyCombo] = []
            var ok = true
            for item in items {
                switch item {
                case .sequence(let inner):
                    let keys = Array(inner)
                    if keys.isEmpty {
                        reader.error(item, "an empty combination in \(what)")
                        ok = false
                    } else if let c = combo(keys, node: item, what) {
                        result.append(c)
                    } else {
                        ok = false
                    }
                default:
                    if let code = key(item, what) { result.append(KeyCombo([code])) } else { ok = false }
                }
            }
            return ok ? result : nil
        default:
            reader.error(node, "expected a key name or a list of key names for \(what), got \(YAMLReader.describe(node))")
            return nil
        }
    }

    private func combo(_ items: [Node], node: Node, _ what: String) -> KeyCombo? {
        var codes: [UInt16] = []
        var ok = true
        for item in items {
            guard let code = key(item, what) else {
                ok = false
                continue
            }
            if codes.contains(code) {
                reader.error(item, "key '\(KeyNames.name(of: code))' twice in one combination in \(what)")
                ok = false
            }
            codes.append(code)
        }
        return ok ? KeyCombo(codes) : nil
    }

    private func key(_ node: Node, _ what: String) -> UInt16? {
        guard case .scalar(let s) = node, !YAMLReader.isNull(node) else {
            reader.error(node, "expected a key name for \(what), got \(YAMLReader.describe(node))")
            return nil
        }
        let name = s.string.trimmingSpaces
        if let code = KeyNames.code(for: name) { return code }
        var message = "unknown key '\(name)' in \(what)"
        if name.contains("+"), name != "+" {
            message += ": write a combination as a list, like "
                + (KeyNameHints.combination(for: name) ?? "[leftctrl, t]")
        } else if let hint = KeyNameHints.hint(for: name) {
            message += " (did you mean '\(hint.name)'?" + (hint.note.map { " \($0)" } ?? "") + ")"
        } else {
            message += ": use the kernel's key names without KEY_ (leftctrl, volumeup, f5) or BTN_ names (btn_left)"
        }
        reader.error(node, message)
        return nil
    }
}
