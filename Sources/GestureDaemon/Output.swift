#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GesturePosix

/// Buffered writer to a file descriptor (stdout for replay); flushes at 64 KiB or on demand.
public final class LineWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Flush after every line (realtime replay, `gesturectl listen`).
    public var flushesEachLine: Bool

    public init(fd: Int32 = 1, flushesEachLine: Bool = false) {
        self.fd = fd
        self.flushesEachLine = flushesEachLine
        buffer.reserveCapacity(65_536)
    }
    deinit { flush() }

    public func write(line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if flushesEachLine || buffer.count >= 65_536 { flush() }
    }

    public func flush() {
        var offset = 0
        while offset < buffer.count {
            let result = buffer.withUnsafeBytes { bytes in
                retryingOnInterrupt { Errno.result(Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)) }
            }
            guard case .success(let n) = result, n > 0 else { break }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

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

/// Ends the process (flushing nothing; callers write with `writeStandardError` / `LineWriter`).
public func exitProcess(_ status: Int32) -> Never { exit(status) }
