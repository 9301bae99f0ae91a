#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import GestureConfig
import GestureCore

enum Repository {
    /// The repository root, found from this source file's path.
    static var root: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GestureConfigTests/TestSupport.swift
        return parts.joined(separator: "/")
    }
}

/// A file's text, or nil.
func readText(_ path: String) -> String? {
    guard let handle = fopen(path, "rb") else { return nil }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, handle)
        bytes.append(contentsOf: buffer[0..<count])
        if count < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Parses, expecting failure; returns the errors (empty when it parsed).
func parseErrors(_ yaml: String, file: String = "config.yaml") -> [ConfigError] {
    do {
        _ = try ConfigurationLoader.parse(yaml, file: file)
        return []
    } catch {
        return error.errors
    }
}

/// Every recognizer kind as the config's errors list them ("expected one of tap, long-press, …").
let everyKind = GestureCore.RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ")
