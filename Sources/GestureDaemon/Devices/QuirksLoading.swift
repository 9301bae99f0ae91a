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
        switch source {
        case .none:
            return nil
        case .system:
            guard fileExists(LibinputQuirks.systemDirectory) else { return nil }
            var files = read(folder: LibinputQuirks.systemDirectory)
            if fileExists(LibinputQuirks.localOverrides) { files += read(file: LibinputQuirks.localOverrides) }
            return LibinputQuirks(files: files)
        case .path(let path):
            guard fileExists(path) else { return nil }
            let names = directoryNames(path)
            return LibinputQuirks(files: names.isEmpty ? read(file: path) : read(folder: path))
        }
    }

    /// This machine's DMI modalias (`MatchDMIModalias`), nil when the kernel gives none.
    public static func dmiModalias(path: String = "/sys/class/dmi/id/modalias") -> String? {
        guard case .success(let bytes) = readWholeFile(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSpacesAndNewlines()
        return text.isEmpty ? nil : text
    }

    private static func read(folder: String) -> [(path: String, text: String)] {
        directoryNames(folder).filter { $0.hasSuffix(".quirks") }.sorted().flatMap { read(file: folder + "/" + $0) }
    }

    private static func read(file: String) -> [(path: String, text: String)] {
        switch readWholeFile(file) {
        case .success(let bytes): return [(file, String(decoding: bytes, as: UTF8.self))]
        case .failure: return []
        }
    }
}

extension LibinputQuirks {
    /// `description` with the quirks that apply to it (`kind`: its class as opened).
    public func applied(to description: DeviceDescription, kind: DeviceKind, dmiModalias: String?) -> DeviceDescription {
        var described = description
        described.quirks = quirks(for: description, kind: kind, dmiModalias: dmiModalias)
        return described
    }
}

extension String {
    fileprivate func trimmingSpacesAndNewlines() -> String {
        var s = Substring(self)
        while let c = s.last, c == "\n" || c == " " || c == "\r" || c == "\t" { s.removeLast() }
        while let c = s.first, c == "\n" || c == " " || c == "\r" || c == "\t" { s.removeFirst() }
        return String(s)
    }
}
