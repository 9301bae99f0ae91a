import Foundation

/// Where the page's files are (docs/view.md, "Where the page comes from"): `$GESTURED_VIEW_DIR`
/// when set; else the installed copy beside the binary (`/usr/bin/gesturectl` →
/// `/usr/share/gestured/view`, as debian/ installs it); else the source tree this binary was
/// built from (`share/view` of the checkout: a `swift build` run straight from the tree).
public enum ViewAssets {
    public static let environmentKey = "GESTURED_VIEW_DIR"

    /// The candidates in the order they are tried.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: String? = Self.executablePath()) -> [String] {
        var list: [String] = []
        if let dir = environment[environmentKey], !dir.isEmpty { list.append(dir) }
        if let executable {
            let bin = (executable as NSString).deletingLastPathComponent
            list.append(((bin as NSString).appendingPathComponent("../share/gestured/view") as NSString).standardizingPath)
        }
        list.append("/usr/share/gestured/view")
        // Sources/GestureView/ViewAssets.swift → the checkout's share/view.
        let source = ((#filePath as NSString).deletingLastPathComponent as NSString)
        list.append((source.appendingPathComponent("../../share/view") as NSString).standardizingPath)
        return list
    }

    /// The first candidate holding the page, or an error naming every place looked in.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Missing) -> String {
        let tried = candidates(environment: environment)
        for dir in tried where FileManager.default.fileExists(atPath: dir + "/index.html") { return dir }
        throw Missing(tried: tried)
    }

    public struct Missing: Error, CustomStringConvertible {
        public let tried: [String]
        public var description: String {
            "the view's page (index.html) is in none of: " + tried.joined(separator: ", ")
                + " (install the gestured package, or set \(ViewAssets.environmentKey) to a copy of share/view)"
        }
    }

    public static func executablePath() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    }
}
