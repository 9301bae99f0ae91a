import GestureCore
import GestureDesktop
import Testing

/// The fixtures: replies captured from a real headless sway 1.7 (Debian 12), and transcripts
/// written from Hyprland's and niri's documented reply formats (Fixtures/README.md).
enum Fixtures {
    static let directory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = directory + "/" + name
        guard let file = fopen(path, "rb") else { throw FixtureMissing(path: path) }
        defer { fclose(file) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }

    static func json(_ name: String) throws -> DesktopJSON {
        try DesktopJSON(parsing: try bytes(name))
    }

    struct FixtureMissing: Error { var path: String }
}

#if canImport(Glibc)
import Glibc
#endif
