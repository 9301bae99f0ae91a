import GestureCore

/// Writes a scene as the `desktop` request's lines (docs/protocol.md, "The desktop bridge"): a full
/// snapshot, at most `windowsPerLine` windows a line, outputs and the pointer in part 0; the topmost
/// `maximumWindows` windows when there are more.
public struct DesktopRequestLines: Sendable {
    public static let version = 1
    public static let windowsPerLine = 100
    public static let maximumWindows = 1000
    public static let maximumOutputs = 16
    /// Titles (and app ids, workspace names) are cut to this many bytes of UTF-8, at a character boundary.
    public static let maximumTitleBytes = 256
    /// Ids and output names longer than this are refused by the daemon; the bridge leaves such
    /// windows and outputs out.
    public static let maximumIDBytes = 128

    public var backend: String
    public var seat: String

    public init(backend: String, seat: String = "seat0") {
        self.backend = backend
        self.seat = seat
    }

    /// The lines of snapshot `number`, and how many windows were left out (beyond the topmost
    /// `maximumWindows`, or with an id too long).
    public func lines(_ scene: DesktopScene, snapshot number: UInt32) -> (lines: [String], leftOut: Int) {
        let outputs = Array(scene.outputs.filter { Self.isUsableID($0.name) }.prefix(Self.maximumOutputs))
        let names = Set(outputs.map(\.name))
        let usable = scene.windowsBottomToTop.filter { names.contains($0.output) && Self.isUsableID($0.id) }
        let kept = Array(usable.suffix(Self.maximumWindows))
        let leftOut = scene.windows.count - kept.count
        var chunks: [ArraySlice<DesktopWindow>] = stride(from: 0, to: kept.count, by: Self.windowsPerLine).map {
            kept[$0..<min($0 + Self.windowsPerLine, kept.count)]
        }
        if chunks.isEmpty { chunks = [[]] }
        var lines: [String] = []
        for (part, chunk) in chunks.enumerated() {
            var line = JSONLine()
            line.add("request", "desktop")
            line.add("version", Self.version)
            line.add("backend", backend)
            line.add("seat", seat)
            line.add("snapshot", UInt64(number))
            line.add("part", part)
            line.add("parts", chunks.count)
            if part == 0 {
                line.addRaw("outputs", "[" + outputs.map(Self.json).joined(separator: ",") + "]")
            }
            line.addRaw("windows", "[" + chunk.map(Self.json).joined(separator: ",") + "]")
            if part == 0, let pointer = scene.pointer, names.contains(pointer.output) {
                var p = JSONLine()
                p.add("output", pointer.output)
                p.add("x", Self.bounded(pointer.x))
                p.add("y", Self.bounded(pointer.y))
                line.addRaw("pointer", p.line)
            }
            lines.append(line.line)
        }
        return (lines, leftOut)
    }

    static func json(_ output: DesktopOutput) -> String {
        var j = JSONLine()
        j.add("name", output.name)
        j.add("x", bounded(output.x))
        j.add("y", bounded(output.y))
        j.add("width", bounded(max(0, output.width)))
        j.add("height", bounded(max(0, output.height)))
        j.add("scale", output.scale.isFinite && output.scale > 0 ? min(output.scale, 64) : 1)
        j.add("transform", output.transform.rawValue)
        if let focused = output.focused { j.add("focused", focused) }
        return j.line
    }

    static func json(_ window: DesktopWindow) -> String {
        var j = JSONLine()
        j.add("id", window.id)
        j.add("app", cut(window.app, toBytes: maximumTitleBytes))
        j.add("title", cut(window.title, toBytes: maximumTitleBytes))
        if let pid = window.pid { j.add("pid", pid) }
        j.add("output", window.output)
        j.add("x", bounded(window.x))
        j.add("y", bounded(window.y))
        j.add("width", bounded(max(0, window.width)))
        j.add("height", bounded(max(0, window.height)))
        j.add("stack", window.stack)
        j.add("focused", window.focused)
        j.add("floating", window.floating)
        j.add("fullscreen", window.fullscreen)
        if let workspace = window.workspace { j.add("workspace", cut(workspace, toBytes: maximumTitleBytes)) }
        return j.line
    }

    /// Ids and output names the daemon takes: 1 to `maximumIDBytes` bytes.
    static func isUsableID(_ text: String) -> Bool { !text.isEmpty && text.utf8.count <= maximumIDBytes }

    /// The daemon takes numbers up to 1e6 in size: a compositor's wilder value is held to that.
    static func bounded(_ v: Double) -> Double { v.isFinite ? min(max(v, -1e6), 1e6) : 0 }

    /// `text` cut to at most `limit` bytes of UTF-8, never inside a character.
    public static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var bytes = 0
        var end = text.unicodeScalars.startIndex
        for index in text.unicodeScalars.indices {
            let size = UTF8.width(text.unicodeScalars[index])
            if bytes + size > limit { break }
            bytes += size
            end = text.unicodeScalars.index(after: index)
        }
        return String(text.unicodeScalars[..<end])
    }
}
