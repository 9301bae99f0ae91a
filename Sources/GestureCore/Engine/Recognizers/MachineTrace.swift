/// One step of a recognizer's state machine: `from` --`event`--> `to` (case names only).
public struct MachineStep: Sendable, Hashable, CustomStringConvertible {
    public var recognizer: RecognizerKind
    public var from: String
    public var event: String
    public var to: String
    public var description: String { "\(recognizer.rawValue): \(from) --\(event)--> \(to)" }
}

/// The steps a recognizer's state machine took since the engine last collected them. Recording is off
/// unless the engine traces (`GestureEngine.tracesMachines`), so the hot path pays one branch.
public struct MachineTrace: Sendable {
    var enabled = false
    var steps: [MachineStep] = []

    /// The case name of an enum value, without its payload (`fingerDown(…)` → `fingerDown`).
    static func name<T>(_ value: T) -> String {
        let text = String(describing: value)
        if let paren = text.firstIndex(of: "(") { return String(text[..<paren]) }
        return text
    }

    @inline(__always)
    mutating func record<S, E>(_ kind: RecognizerKind, _ from: S, _ event: E, _ to: S) {
        guard enabled else { return }
        steps.append(MachineStep(recognizer: kind, from: MachineTrace.name(from), event: MachineTrace.name(event),
                                 to: MachineTrace.name(to)))
    }
}
