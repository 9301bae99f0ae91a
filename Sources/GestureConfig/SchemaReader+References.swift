import GestureCore
import GestureYAML

/// Cross references, checked once everything is read: regions and gestures named by id, redirect
/// and require-to-fail cycles.
extension SchemaReader {
    // MARK: Cross references

    func checkReferences() {
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
        // Bindings may name window rules' gestures too.
        let bindable = gestureNames + windowEntries.flatMap { $0.gestures.map(\.spec.id) }
        func checkGesture(_ ref: Reference, _ what: String) -> Bool {
            guard byID[ref.id] == nil else { return true }
            reader.error(ref.node, Self.unknownGesture(ref.id, in: what, among: gestureNames))
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
        for ref in bindingReader.gestureReferences where !bindable.contains(ref.id) {
            reader.error(ref.node, Self.unknownGesture(ref.id, in: "'gesture' of \(ref.binding)", among: bindable))
        }
    }

    /// "unknown gesture 'x' in …", with the nearest name, else the names defined (at most 12).
    static func unknownGesture(_ id: String, in what: String, among names: [String]) -> String {
        let message = "unknown gesture '\(id)' in \(what)"
        if let guess = YAMLReader.suggestion(for: id, among: names) { return message + " (did you mean '\(guess)'?)" }
        if names.isEmpty { return message + ": no gesture is defined; add it under 'gestures'" }
        return message + ": the gestures defined are \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", ..." : "")"
    }

    func checkRedirectCycles() {
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
    func checkRequireToFailCycles(_ byID: [String: GestureEntry]) {
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
