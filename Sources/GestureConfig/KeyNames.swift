/// Key names of `keys:` bindings: the kernel's EV_KEY names (from `KernelKeyNames`, generated from
/// linux/input-event-codes.h), case-insensitive. A `KEY_` name is written without its prefix
/// (`leftctrl`, `volumeup`, `f5`, `1`), or with it (`key_leftctrl`); a `BTN_` name keeps its
/// prefix (`btn_left`, `btn_right`), so `right` is always the arrow key, never the mouse button.
public enum KeyNames {
    /// Config name (lowercase) → code, every name of the header.
    private static let codes: [String: UInt16] = {
        var table: [String: UInt16] = [:]
        for (name, code) in KernelKeyNames.entries { table[configName(kernelName: name)] = code }
        return table
    }()

    /// Code → canonical kernel name (the first name the header gives it).
    private static let kernelNames: [UInt16: String] = {
        var table: [UInt16: String] = [:]
        for (name, code) in KernelKeyNames.entries where table[code] == nil { table[code] = name }
        return table
    }()

    /// Every config name, in the header's order (for suggestions and documentation).
    public static let all: [String] = KernelKeyNames.entries.map { configName(kernelName: $0.name) }

    /// `KEY_LEFTCTRL` → `leftctrl`, `BTN_RIGHT` → `btn_right`.
    static func configName(kernelName: String) -> String {
        let lower = kernelName.lowercased()
        return lower.hasPrefix("key_") ? String(lower.dropFirst(4)) : lower
    }

    /// The code of a config name, or nil.
    public static func code(for name: String) -> UInt16? {
        var lower = name.lowercased()
        if lower.hasPrefix("key_") { lower.removeFirst(4) }
        return codes[lower]
    }

    /// The config name of a code (`leftctrl`), or `key-N` for a code the kernel does not name.
    public static func name(of code: UInt16) -> String {
        kernelNames[code].map { configName(kernelName: $0) } ?? "key-\(code)"
    }

    /// The kernel's name of a code (`KEY_LEFTCTRL`), or nil.
    public static func kernelName(of code: UInt16) -> String? { kernelNames[code] }

    /// Every (kernel name, code) pair, for cross-checks against libevdev.
    public static var kernelEntries: [(name: String, code: UInt16)] { KernelKeyNames.entries }
}
