#if canImport(Glibc)
import Glibc
#endif

/// Where the desktop side's own files are: the KWin script and the two variants of the GNOME Shell
/// extension (docs/desktop.md, "Where the KWin script and the extension come from"). Each root holds
/// the same layout, the checkout's `desktop/` folder as the package installs it in `/usr/share/gestured`:
///
///     kwin/gestured.js
///     gnome-shell/43/gestured@gestured.org/   GNOME Shell 43 and 44 (legacy imports)
///     gnome-shell/45/gestured@gestured.org/   GNOME Shell 45 and later (ES modules)
///
/// The roots, in the order they are tried: `$GESTURED_DESKTOP_DIR`; the installed copy beside the
/// binary (`PREFIX/bin/gesturectl` → `PREFIX/share/gestured`); `/usr/share/gestured`; the checkout this
/// binary was built from (a `swift build` run straight from the tree), so that `gesturectl desktop`
/// from a checkout loads the checkout's script with no flag.
public enum DesktopAssets {
    public static let environmentKey = "GESTURED_DESKTOP_DIR"
    public static let installedRoot = "/usr/share/gestured"
    public static let kwinScript = "kwin/gestured.js"

    /// The roots in the order they are tried. `sourceFile` is this file's path at build time: the
    /// checkout is the nearest folder above it that has `Package.swift` and `desktop/kwin/gestured.js`.
    public static func roots(environment: [String: String], executable: String?, sourceFile: String = sourcePath,
                             exists: (String) -> Bool = Self.readable) -> [String] {
        var list: [String] = []
        if let dir = environment[environmentKey], !dir.isEmpty { list.append(dir) }
        if let executable, let bin = parent(executable), let prefix = parent(bin) {
            list.append(prefix + "/share/gestured")
        }
        list.append(installedRoot)
        var dir = parent(sourceFile)
        while let current = dir, current != "/" {
            if exists(current + "/Package.swift"), exists(current + "/desktop/" + kwinScript) {
                list.append(current + "/desktop")
                break
            }
            dir = parent(current)
        }
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }

    /// The first root holding `relative`, or every place looked in.
    public static func locate(_ relative: String, environment: [String: String], executable: String? = executablePath(),
                              exists: (String) -> Bool = Self.readable) -> Result<String, Missing> {
        let tried = roots(environment: environment, executable: executable, exists: exists).map { $0 + "/" + relative }
        if let found = tried.first(where: exists) { return .success(found) }
        return .failure(Missing(relative: relative, tried: tried))
    }

    /// The folder of a GNOME extension variant, e.g. `…/gnome-shell/45/gestured@gestured.org`.
    public static func gnomeExtension(_ variant: GnomeExtensionVariant, environment: [String: String],
                                      executable: String? = executablePath()) -> Result<String, Missing> {
        locate(variant.folder + "/metadata.json", environment: environment, executable: executable)
            .map { String($0.dropLast("/metadata.json".count)) }
    }

    public struct Missing: Error, Equatable, CustomStringConvertible, Sendable {
        public var relative: String
        public var tried: [String]
        public var description: String {
            "\(relative) is in none of: " + tried.joined(separator: ", ")
                + " (install the gestured package, or set \(DesktopAssets.environmentKey) to a copy of the checkout's desktop/ folder)"
        }
    }

    /// This file's path when it was compiled (a `#filePath` in a default argument would be the caller's).
    public static let sourcePath: String = #filePath

    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    static func parent(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }
}

/// The two forms of the GNOME Shell extension: GNOME 45 made extensions ES modules, which 43 and 44
/// cannot load, and the legacy form does not load on 45 and later.
public enum GnomeExtensionVariant: String, CaseIterable, Sendable {
    /// GNOME Shell 43 and 44: `imports.*`, `init()` returning the extension object.
    case legacy = "43"
    /// GNOME Shell 45 and later: `import … from 'resource:///…'`, a default-exported class.
    case modules = "45"

    /// The variant a Shell of this major version loads.
    public init(shellMajor: Int) { self = shellMajor >= 45 ? .modules : .legacy }

    /// The variant for a version as GNOME Shell reports it ("48.7", "43.9", "49.beta"), nil when
    /// it has no leading number.
    public init?(shellVersion: String) {
        guard let major = Int(shellVersion.prefix { $0.isNumber }) else { return nil }
        self.init(shellMajor: major)
    }

    /// Its folder under a root of `DesktopAssets`.
    public var folder: String { "gnome-shell/\(rawValue)/\(GnomeSource.extensionUUID)" }

    /// The Shell versions it is for, as its metadata.json lists them.
    public var summary: String { self == .legacy ? "GNOME Shell 43 and 44" : "GNOME Shell 45 and later" }
}
