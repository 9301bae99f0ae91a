import GestureCore
import GestureYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the YAML configuration (schema: docs/configuration.md) into a `Configuration`.
public enum ConfigurationLoader {
    /// The embedded default config's YAML text, identical to config/default.yaml.
    public static let defaultYAML: String = DefaultConfiguration.yaml

    /// The file name used in messages about the embedded default.
    public static let defaultFileName = "<default config>"

    /// Parses and validates; throws every error found (at least one).
    public static func parse(_ yaml: String, file: String) throws(ConfigErrors) -> Configuration {
        let reader = YAMLReader(file: file)
        let root: Node?
        do {
            root = try YAMLComposer.compose(yaml)
        } catch {
            reader.syntaxError(error, in: yaml)
            throw ConfigErrors(errors: reader.errors)
        }
        let configuration = SchemaReader(reader: reader).configuration(root)
        guard reader.errors.isEmpty, let configuration else {
            let sorted = reader.errors.enumerated().sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }.map(\.element)
            throw ConfigErrors(errors: sorted.isEmpty
                ? [ConfigError(file: file, line: 1, column: 1, message: "invalid configuration")] : sorted)
        }
        return configuration
    }

    /// Reads and parses a file; an unreadable file is one error at line 0.
    public static func load(path: String) throws(ConfigErrors) -> Configuration {
        guard let text = readFile(path) else {
            let reason = String(cString: strerror(errno))
            throw ConfigErrors(errors: [ConfigError(file: path, line: 0, column: 0, message: "cannot read the file: \(reason)")])
        }
        return try parse(text, file: path)
    }

    /// The embedded default configuration. It is tested to load without error.
    public static func loadDefault() -> Configuration {
        do {
            return try parse(defaultYAML, file: defaultFileName)
        } catch {
            preconditionFailure("the embedded default config is invalid:\n\(error)")
        }
    }

    /// The whole file as UTF-8 text, or nil (errno set) when it cannot be read.
    private static func readFile(_ path: String) -> String? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count {
                if ferror(handle) != 0 { return nil }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
