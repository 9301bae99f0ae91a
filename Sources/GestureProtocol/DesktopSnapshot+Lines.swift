import GestureCore

extension DesktopSnapshot {
    /// Windows a line holds: a snapshot of `maxWindows` goes in ten parts.
    public static let windowsPerLine = 100

    /// The lines of snapshot `number` of `desktop`, as a bridge sends them: a full snapshot, at most
    /// `windowsPerLine` windows a line, the outputs and the pointer in part 0; the topmost
    /// `maxWindows` windows when there are more. What the daemon would refuse is left out or held in
    /// bounds here: outputs beyond `maxOutputs` and outputs or windows whose id is empty or longer
    /// than `maxIDBytes` are left out (with the windows on such outputs), texts are cut to
    /// `maxTextBytes`, numbers held within `maxMagnitude`, sizes at zero or more. `leftOut` counts
    /// the windows left out.
    public static func lines(for desktop: Desktop, backend: String, seat: String = "seat0",
                             snapshot number: UInt32) -> (lines: [String], leftOut: Int) {
        let outputs = Array(desktop.outputs.filter { isUsableID($0.name) }.prefix(maxOutputs)).map(bounded)
        let names = Set(outputs.map(\.name))
        let usable = desktop.windowsBottomToTop.filter { names.contains($0.output) && isUsableID($0.id) }
        let kept = Array(usable.suffix(maxWindows)).map(bounded)
        var chunks: [ArraySlice<DesktopWindow>] = stride(from: 0, to: kept.count, by: windowsPerLine).map {
            kept[$0..<min($0 + windowsPerLine, kept.count)]
        }
        if chunks.isEmpty { chunks = [[]] }
        let pointer = desktop.pointer.flatMap { p in
            names.contains(p.output) ? DesktopPointer(output: p.output, x: bounded(p.x), y: bounded(p.y)) : nil
        }
        let lines = chunks.enumerated().map { part, chunk in
            DesktopSnapshot(backend: backend, seat: seat, snapshot: number, part: part, parts: chunks.count,
                            outputs: part == 0 ? outputs : nil, windows: Array(chunk),
                            pointer: part == 0 ? pointer : nil).line
        }
        return (lines, desktop.windows.count - kept.count)
    }

    /// Ids and output names the daemon takes: 1 to `maxIDBytes` bytes.
    static func isUsableID(_ text: String) -> Bool { !text.isEmpty && text.utf8.count <= maxIDBytes }

    /// A compositor's wilder number held to what the daemon takes (a non-finite one is 0).
    static func bounded(_ v: Double) -> Double { v.isFinite ? min(max(v, -maxMagnitude), maxMagnitude) : 0 }

    static func bounded(_ o: DesktopOutput) -> DesktopOutput {
        var o = o
        (o.x, o.y) = (bounded(o.x), bounded(o.y))
        (o.width, o.height) = (bounded(max(0, o.width)), bounded(max(0, o.height)))
        o.scale = o.scale.isFinite && o.scale > 0 ? min(o.scale, 64) : 1
        return o
    }

    static func bounded(_ w: DesktopWindow) -> DesktopWindow {
        var w = w
        (w.x, w.y) = (bounded(w.x), bounded(w.y))
        (w.width, w.height) = (bounded(max(0, w.width)), bounded(max(0, w.height)))
        w.stack = min(max(w.stack, -Int(maxMagnitude)), Int(maxMagnitude))
        w.app = cut(w.app)
        w.title = cut(w.title)
        w.workspace = w.workspace.map(cut)
        return w
    }
}
