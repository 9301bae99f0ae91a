import GestureConfig
import GestureCore
import GesturePosix

/// Reading libinput's quirks files (`LibinputQuirks`, docs/input.md, "Device quirks").
public enum QuirksLoading {
    /// Where the quirks come from (`gestured run` and `gestured replay`: `--quirks PATH`, `--no-quirks`).
    public enum Source: Sendable, Equatable {
        /// libinput's own files, when libinput is installed (`LibinputQuirks.systemDirectory`, then
        /// `LibinputQuirks.localOverrides`).
        case system
        /// A folder of `*.quirks` files (read in name order) or one file.
        case path(String)
        /// None: every contact counts and position axes without resolution keep gestured's own guess.
        case none
    }

    /// The database of a source; nil when there is none (no libinput installed, `.none`, a path that
    /// does not exist). Files that cannot be read and sections that cannot be parsed are in `problems`.
    public static func load(_ source: Source) -> LibinputQuirks? {
        var files = Files()
        switch source {
        case .none:
            return nil
        case .system:
            guard fileExists(LibinputQuirks.systemDirectory) else { return nil }
            files.read(folder: LibinputQuirks.systemDirectory)
            if fileExists(LibinputQuirks.localOverrides) { files.read(file: LibinputQuirks.localOverrides) }
        case .path(let path):
            guard fileExists(path) else { return nil }
            if directoryNames(path).isEmpty { files.read(file: path) } else { files.read(folder: path) }
        }
        return LibinputQuirks(files: files.texts, unreadable: files.unreadable)
    }

    /// This machine's DMI modalias (`MatchDMIModalias`), nil when the kernel gives none.
    public static func dmiModalias(path: String = "/sys/class/dmi/id/modalias") -> String? {
        guard case .success(let bytes) = readWholeFile(path) else { return nil }
        return LibinputQuirks.dmiModalias(fromFileText: String(decoding: bytes, as: UTF8.self))
    }

    /// The files read, in order, and the problems of those that could not be.
    private struct Files {
        var texts: [(path: String, text: String)] = []
        var unreadable: [String] = []

        mutating func read(folder: String) {
            for name in directoryNames(folder).filter({ $0.hasSuffix(".quirks") }).sorted() { read(file: folder + "/" + name) }
        }

        mutating func read(file: String) {
            switch readWholeFile(file) {
            case .success(let bytes): texts.append((file, String(decoding: bytes, as: UTF8.self)))
            case .failure(let error): unreadable.append("\(error); the file is left out")
            }
        }
    }
}
