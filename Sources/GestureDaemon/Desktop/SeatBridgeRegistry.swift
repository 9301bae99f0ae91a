import GestureCore
import GestureProtocol

/// The session bridges (docs/desktop.md, docs/protocol.md "The desktop bridge"): which client is
/// the bridge of the seat, the snapshot it is assembling from parts and the last complete one.
/// Owned by the loop thread; `Daemon+Desktop.swift` applies what it decides to the engine.
///
/// One bridge per seat; the newer replaces the older: a client's first valid, complete snapshot
/// makes it the seat's bridge, the older one is told (`desktop-replaced`) and its later desktop
/// requests are refused. A line that is refused, or the parts of a snapshot not yet complete, change
/// nothing of the seat's bridge: a client whose snapshot is refused never takes the role from the
/// bridge, whose windows stay. This daemon serves one seat, `seat0`.
///
/// Each client assembles its own snapshot from parts (`Assembly` × event → next):
///
/// | state                 | event                                     | next / effect                         |
/// |-----------------------|-------------------------------------------|---------------------------------------|
/// | idle                  | part 0 of n = 1                           | idle / snapshot complete              |
/// | idle                  | part 0 of n > 1                           | collecting(s, next 1)                 |
/// | idle                  | part k > 0                                | idle / error: no part 0               |
/// | collecting(s, next k) | part k of snapshot s, same n, k < n - 1   | collecting(s, next k + 1)             |
/// | collecting(s, next k) | part k of snapshot s, same n, k = n - 1   | idle / snapshot complete              |
/// | collecting            | part 0 (a new snapshot)                   | as from idle (the partial one dropped)|
/// | collecting            | any other part                            | idle / error, the partial one dropped |
///
/// A complete snapshot that passes the last checks (windows on listed outputs, ids once) is
/// applied; from a client other than the bridge it first makes that client the bridge.
final class SeatBridgeRegistry {
    static let seat = "seat0"

    enum Assembly {
        case idle
        case collecting(snapshot: UInt32, next: Int, parts: Int, outputs: [DesktopOutput],
                        windows: [DesktopWindow], pointer: DesktopPointer?)
    }

    /// The bridge's client id, nil without one.
    private(set) var bridge: Int?
    private(set) var backend = ""
    private(set) var lastSnapshot: UInt32?
    /// When the last complete snapshot was applied (monotonic µs).
    private(set) var appliedAt: Int64?
    /// Each client's snapshot in assembly (absent: idle).
    private var assemblies: [Int: Assembly] = [:]
    /// Clients replaced by a newer bridge: their desktop requests are refused.
    private(set) var replaced: Set<Int> = []

    /// The snapshot client `client` is assembling.
    func assembly(of client: Int) -> Assembly { assemblies[client] ?? .idle }

    enum Outcome {
        /// A reply line; `complete` the snapshot's desktop to apply; `replacedClient` to tell.
        case accepted(reply: String, complete: Desktop?, replacedClient: Int?)
        case refused(String)
    }

    /// One desktop request line of client `client` at `now` (monotonic µs).
    func receive(_ line: String, client: Int, now: Int64) -> Outcome {
        func refuse(_ message: String) -> Outcome { .refused(ProtocolLine.error(message, request: "desktop")) }
        if replaced.contains(client) {
            return refuse("a newer bridge replaced this one for \(Self.seat); nothing was applied")
        }
        let part: DesktopSnapshot
        switch DesktopSnapshot.parse(line) {
        case .success(let p): part = p
        case .failure(let error):
            assemblies[client] = nil
            return refuse(error.message)
        }
        guard part.seat == Self.seat else {
            assemblies[client] = nil
            return refuse("seat: this daemon serves \(Self.seat), got \(ProtocolError.echo(part.seat)); nothing was applied")
        }
        if let last = lastSnapshot, bridge == client, part.snapshot < last {
            assemblies[client] = nil
            return refuse("snapshot: \(part.snapshot) is older than \(last), the last applied; nothing was applied")
        }
        switch step(part, client: client) {
        case .failure(let error):
            assemblies[client] = nil
            return refuse(error.message)
        case .success(nil):
            return .accepted(reply: ProtocolLine.response("desktop", [("snapshot", String(part.snapshot)),
                                                                      ("part", String(part.part))]),
                             complete: nil, replacedClient: nil)
        case .success(let desktop?):
            var replacedClient: Int?
            if bridge != client {
                replacedClient = bridge
                if let old = bridge {
                    replaced.insert(old)
                    assemblies[old] = nil
                }
                bridge = client
            }
            backend = part.backend
            lastSnapshot = part.snapshot
            appliedAt = now
            return .accepted(reply: ProtocolLine.response("desktop", [
                ("snapshot", String(part.snapshot)), ("outputs", String(desktop.outputs.count)),
                ("windows", String(desktop.windows.count)),
            ]), complete: desktop, replacedClient: replacedClient)
        }
    }

    /// Client `client`'s assembly transition for one checked part: the complete desktop, nil while
    /// parts are missing, or the error.
    private func step(_ part: DesktopSnapshot, client: Int) -> Result<Desktop?, ProtocolError> {
        let outputs: [DesktopOutput]
        let windows: [DesktopWindow]
        let pointer: DesktopPointer?
        switch assembly(of: client) {
        case .idle where part.part == 0, .collecting where part.part == 0:
            (outputs, windows, pointer) = (part.outputs ?? [], part.windows, part.pointer)
        case .idle:
            return .failure(ProtocolError("part: \(part.part) of snapshot \(part.snapshot) came without part 0; nothing was applied"))
        case .collecting(let s, let next, let n, let o, let w, let p):
            guard part.snapshot == s, part.part == next, part.parts == n else {
                return .failure(ProtocolError("part: expected part \(next) of \(n) of snapshot \(s), got part \(part.part) "
                    + "of \(part.parts) of snapshot \(part.snapshot); the partial snapshot was dropped, the last complete one stays"))
            }
            (outputs, windows, pointer) = (o, w + part.windows, part.pointer ?? p)
        }
        if windows.count > DesktopSnapshot.maxWindows {
            return .failure(ProtocolError("windows: \(windows.count) windows in snapshot \(part.snapshot), at most "
                + "\(DesktopSnapshot.maxWindows) (send the topmost); nothing was applied"))
        }
        if part.part < part.parts - 1 {
            assemblies[client] = .collecting(snapshot: part.snapshot, next: part.part + 1, parts: part.parts, outputs: outputs,
                                             windows: windows, pointer: pointer)
            return .success(nil)
        }
        assemblies[client] = nil
        var seen = Set<String>()
        for (i, w) in windows.enumerated() where !seen.insert(w.id).inserted {
            return .failure(ProtocolError("windows[\(i)].id: '\(w.id)' is listed twice in snapshot \(part.snapshot)"))
        }
        return DesktopSnapshot.desktop(outputs: outputs, windows: windows, pointer: pointer).map { Optional($0) }
    }

    /// Client `client` left: true when it was the bridge (its windows are to be dropped).
    func clientGone(_ client: Int) -> Bool {
        replaced.remove(client)
        assemblies[client] = nil
        guard bridge == client else { return false }
        bridge = nil
        backend = ""
        lastSnapshot = nil
        appliedAt = nil
        return true
    }

    /// `status`'s `desktop` object.
    func statusField(desktop: Desktop?, now: Int64) -> String {
        var j = JSONLine()
        if let bridge { j.add("bridge", bridge) } else { j.addRaw("bridge", "null") }
        if bridge != nil { j.add("backend", backend) }
        j.add("outputs", desktop?.outputs.count ?? 0)
        j.add("windows", desktop?.windows.count ?? 0)
        if let lastSnapshot { j.add("snapshot", Int(lastSnapshot)) }
        if let appliedAt { j.add("age", Double(now - appliedAt) / 1_000_000) }
        return j.line
    }
}
