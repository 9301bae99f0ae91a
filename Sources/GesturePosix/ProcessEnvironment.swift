#if canImport(Glibc)
import Glibc
#endif

/// This process's environment, read in one place (the bridge's `--dry-run` lookups, the commands
/// bindings run, the programs the bridge runs).
public enum ProcessEnvironment {
    /// The raw "NAME=value" entries, in their order.
    public static func entries() -> [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    /// The environment by name. An entry without "=" is skipped; a name given twice keeps its
    /// first value (what getenv(3) returns).
    public static func current() -> [String: String] { variables(entries()) }

    /// `entries` by name (pure; `current` reads this process's).
    public static func variables(_ entries: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for text in entries {
            guard let equals = text.firstIndex(of: "=") else { continue }
            let name = String(text[..<equals])
            if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
        }
        return result
    }
}
