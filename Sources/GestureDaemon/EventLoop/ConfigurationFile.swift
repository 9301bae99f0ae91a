#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GesturePosix

/// Loads the configuration file, or the embedded default when no path is given.
public func loadConfiguration(path: String?) throws(ConfigErrors) -> Configuration {
    guard let path else { return ConfigurationLoader.loadDefault() }
    return try ConfigurationLoader.load(path: path)
}

/// The config file `gestured run` uses when none is given: `$GESTURED_CONFIG`, then (not as root)
/// `$XDG_CONFIG_HOME/gestured/gestured.yaml` (default `~/.config`), then `/etc/gestured/gestured.yaml`;
/// the first that exists. nil: the embedded default. Looked up again at every reload, so a config
/// file created later is picked up by `gesturectl reload`.
public func defaultConfigurationPath() -> String? {
    defaultConfigurationChoice().path
}

/// Which config `gestured run` loads without `--config`, and why (what `check-config` says it checks).
public struct ConfigurationChoice: Equatable, Sendable {
    /// The file, or nil for the embedded default.
    public var path: String?
    /// Why this one: "$GESTURED_CONFIG", "the user's config", "the system config", or, for the
    /// embedded default, the files that were looked for.
    public var reason: String

    /// "/etc/gestured/gestured.yaml (the system config)".
    public var description: String {
        if let path { return "\(path) (\(reason))" }
        return "the embedded default config (\(reason))"
    }
}

/// `defaultConfigurationPath()` with the reason for its answer. The parameters describe the
/// process (tests describe another): its environment, its uid, and which files it can read.
public func defaultConfigurationChoice(
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } },
    uid: UInt32 = getuid(),
    isReadable: (String) -> Bool = { access($0, R_OK) == 0 }
) -> ConfigurationChoice {
    func env(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
    if let explicit = env("GESTURED_CONFIG") { return ConfigurationChoice(path: explicit, reason: "from $GESTURED_CONFIG") }
    var candidates: [(path: String, reason: String)] = []
    if uid != 0 {
        if let xdg = env("XDG_CONFIG_HOME") {
            candidates.append((xdg + "/gestured/gestured.yaml", "the user's config"))
        } else if let home = env("HOME") {
            candidates.append((home + "/.config/gestured/gestured.yaml", "the user's config"))
        }
    }
    candidates.append(("/etc/gestured/gestured.yaml", "the system config"))
    if let found = candidates.first(where: { isReadable($0.path) }) {
        return ConfigurationChoice(path: found.path, reason: found.reason)
    }
    let looked = candidates.map(\.path).joined(separator: " nor ")
    return ConfigurationChoice(path: nil, reason: "$GESTURED_CONFIG is not set and there is no \(looked)")
}
