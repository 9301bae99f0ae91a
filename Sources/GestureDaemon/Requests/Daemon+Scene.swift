import GestureCore
import GestureProtocol

/// The `scene` request (docs/protocol.md, "The scene"): what a picture of the daemon's world needs
/// and no streamed line says — the config's region tree with its frames as written, its gestures
/// with what each waits for, and the desktop's outputs and windows (with the rule each matched).
/// `gesturectl view` asks it whenever `status` shows a new desktop snapshot or config.
extension Daemon {
    func answerScene(client: Int) -> String {
        let engine = configuration.engine
        let gestures = (engine.recognizers + engine.windowRules.flatMap(\.gestures)).map { spec -> String in
            var j = JSONLine()
            j.add("id", spec.id)
            j.add("kind", spec.kind.rawValue)
            j.add("region", spec.region)
            j.addRaw("require-to-fail", ProtocolLine.strings(spec.requireToFail))
            j.addRaw("simultaneous-with", ProtocolLine.strings(spec.simultaneousWith))
            return j.line
        }
        return ProtocolLine.response("scene", [
            ("regions", Self.sceneRegion(engine.root)),
            ("gestures", ProtocolLine.array(gestures)),
            ("desktop", sceneDesktop()),
        ])
    }

    /// A region as the config wrote it: frame items as numbers (surface units) or "N%" strings.
    static func sceneRegion(_ region: RegionSpec) -> String {
        func length(_ l: Length) -> String {
            switch l {
            case .absolute(let v): JSONLine.number(v)
            case .percent(let p): JSONLine.quoted(JSONLine.number(p) + "%")
            }
        }
        let f = region.frame
        var j = JSONLine()
        j.add("id", region.id)
        j.addRaw("frame", "[\(length(f.x)),\(length(f.y)),\(length(f.width)),\(length(f.height))]")
        if region.hidden { j.add("hidden", true) }
        if !region.interactionEnabled { j.add("interactive", false) }
        if !region.deviceKinds.isEmpty {
            j.addRaw("device-kinds", ProtocolLine.strings(region.deviceKinds.map(\.rawValue).sorted()))
        }
        j.addRaw("children", ProtocolLine.array(region.children.map(sceneRegion)))
        return j.line
    }

    /// The last complete desktop snapshot, or null without a bridge: the protocol's one JSON form
    /// of the desktop, each window with the rule it matched.
    func sceneDesktop() -> String {
        guard let desktop = pipeline.engine.desktop else { return "null" }
        return desktop.sceneJSON(backend: seatBridges.backend) { pipeline.engine.window(forRegion: $0.regionID)?.rule }
    }
}
