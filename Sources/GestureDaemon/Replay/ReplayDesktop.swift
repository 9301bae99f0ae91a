import FoundationEssentials
import GestureCore
import GestureProtocol
import GestureRecording

extension Replay {
    /// The desktop of a snapshot file (`gestured replay --desktop FILE`): the `desktop` request's
    /// JSON lines as a bridge sends them (docs/protocol.md, "The desktop bridge"; what
    /// `gesturectl desktop --print --once` prints), one snapshot in one or more parts. The lines are
    /// checked and assembled as the daemon does; a file of several snapshots gives the last
    /// complete one. Errors name the file and line.
    public static func loadDesktop(path: String) throws(RecordingError) -> Desktop {
        let text: String
        do {
            text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        } catch {
            throw RecordingError(file: path, line: nil, message: "cannot read the desktop snapshot: \(error)")
        }
        return try desktop(fromSnapshotLines: text, file: path)
    }

    /// `loadDesktop` of text already read (`file` names it in errors).
    public static func desktop(fromSnapshotLines text: String, file: String) throws(RecordingError) -> Desktop {
        let bridges = SeatBridgeRegistry()
        var desktop: Desktop?
        var lastLine = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            guard !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            lastLine = index + 1
            if case .success(let part) = DesktopSnapshot.parse(line), part.request != "desktop" {
                throw RecordingError(file: file, line: index + 1,
                                     message: "request: expected \"desktop\" (a desktop snapshot line), got \"\(part.request)\"")
            }
            switch bridges.receive(line, client: 1, now: 0) {
            case .refused(let reply):
                throw RecordingError(file: file, line: index + 1, message: ProtocolLine.message(ofError: reply) ?? reply)
            case .accepted(_, let complete, _):
                if let complete { desktop = complete }
            }
        }
        guard lastLine > 0 else {
            throw RecordingError(file: file, line: nil, message: "no desktop snapshot in the file (expected the desktop "
                + "request's JSON lines, as `gesturectl desktop --print --once` prints them)")
        }
        if case .collecting(let snapshot, let next, let parts, _, _, _) = bridges.assembly(of: 1) {
            throw RecordingError(file: file, line: lastLine, message: "snapshot \(snapshot) ends after part \(next - 1) "
                + "of \(parts): part \(next) is missing")
        }
        guard let desktop else {
            throw RecordingError(file: file, line: lastLine, message: "no complete desktop snapshot in the file")
        }
        return desktop
    }
}
