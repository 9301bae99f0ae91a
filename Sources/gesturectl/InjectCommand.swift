#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureCore

extension GestureCtl {
    /// `gesturectl inject FILE…`: plays recordings into the running daemon, one after another, as
    /// `gestured run --inject` does at start (docs/protocol.md, `inject`).
    struct Inject: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play recordings into the running daemon, one after another, as devices (allowed to root and the daemon's own uid).",
            discussion: "The daemon reads the files (the paths are made absolute here). Each recording starts when the one before has finished; the reply comes at once.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Recordings (evemu .events / .evemu, or a gestured recording).") var files: [String]

        func run() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one recording") }
            let paths = files.map(Self.absolute)
            var line = JSONLine()
            line.add("request", "inject")
            line.addRaw("paths", "[" + paths.map(JSONLine.quoted).joined(separator: ",") + "]")
            _ = try connection.request(try connection.connect(), line.line)
        }

        /// `path` from the current directory, unchanged when already absolute.
        static func absolute(_ path: String) -> String {
            if path.hasPrefix("/") { return path }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return path }
            let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (directory.hasSuffix("/") ? directory : directory + "/") + path
        }
    }
}
