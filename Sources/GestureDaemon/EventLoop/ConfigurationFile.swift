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
    func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    var candidates: [String] = []
    if let explicit = env("GESTURED_CONFIG") { return explicit }
    if getuid() != 0 {
        if let xdg = env("XDG_CONFIG_HOME") {
            candidates.append(xdg + "/gestured/gestured.yaml")
        } else if let home = env("HOME") {
            candidates.append(home + "/.config/gestured/gestured.yaml")
        }
    }
    candidates.append("/etc/gestured/gestured.yaml")
    return candidates.first { access($0, R_OK) == 0 }
}

