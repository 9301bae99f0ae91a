import GestureCore
import GestureProtocol

/// The `scene` request (docs/protocol.md, "The scene"): what a picture of the daemon's world needs
/// and no streamed line says — the config's region tree with its frames as written, its gestures
/// with what each waits for, and the desktop's outputs and windows (with the rule each matched).
/// `gesturectl view` asks it whenever `status` shows a new desktop snapshot or config.
extension Daemon {
    func answerScene(client: Int) -> String {
        let engine = configuration.engine
        let surfaces = devices.keys.sorted().map { id -> SurfaceLayout in
            let d = devices[id]!
            return pipeline.engine.surfaceLayout(device: id, name: d.ref.name, kind: d.ref.kind,
                                                 size: d.surface.size(for: d.evdev.description))
        } + injected.map { d in
            pipeline.engine.surfaceLayout(device: d.ref.id, name: d.ref.name, kind: d.ref.kind,
                                          size: d.surface.size(for: d.recording.description))
        }
        return Self.sceneReply(regions: engine.root, gestures: engine.recognizers + engine.windowRules.flatMap(\.gestures),
                               desktop: sceneDesktop(), surfaces: surfaces) { ClientNamespace.local($0, for: client) }
    }

    /// The scene reply's line (the daemon's, and `gestured replay --scene`'s): `local` names a region
    /// id as the client asking sees it.
    static func sceneReply(regions: RegionSpec, gestures: [RecognizerSpec], desktop: String, surfaces: [SurfaceLayout],
                           local: (String) -> String) -> String {
        let gestures = gestures.map { spec -> String in
            var j = JSONLine()
            j.add("id", spec.id)
            j.add("kind", spec.kind.rawValue)
            j.add("region", spec.region)
            j.addRaw("require-to-fail", ProtocolLine.strings(spec.requireToFail))
            j.addRaw("simultaneous-with", ProtocolLine.strings(spec.simultaneousWith))
            return j.line
        }
        return ProtocolLine.response("scene", [
            ("regions", sceneRegion(regions)),
            ("gestures", ProtocolLine.array(gestures)),
            ("desktop", desktop),
            ("surfaces", ProtocolLine.array(surfaces.map { sceneSurface($0, local: local) })),
        ])
    }

    /// One device's surface as the engine lays it out (`SurfaceLayout`): its output and its regions'
    /// frames in surface units and in the output's logical pixels.
    static func sceneSurface(_ layout: SurfaceLayout, local: (String) -> String) -> String {
        func rect(_ r: Rect) -> String {
            "[\(JSONLine.number(r.minX)),\(JSONLine.number(r.minY)),\(JSONLine.number(r.width)),\(JSONLine.number(r.height))]"
        }
        let regions = layout.regions.map { r -> String in
            var j = JSONLine()
            j.add("id", local(r.id))
            if let parent = r.parent { j.add("parent", local(parent)) }
            j.add("depth", r.depth)
            switch r.role {
            case .plain: break
            case .output: j.add("role", "output")
            case .window: j.add("role", "window")
            }
            j.addRaw("frame", rect(r.frame))
            if let f = r.outputFrame { j.addRaw("output-frame", rect(f)) }
            if !r.interactive { j.add("interactive", false) }
            if r.hidden { j.add("hidden", true) }
            return j.line
        }
        var j = JSONLine()
        j.add("device", layout.device)
        j.add("kind", layout.kind.rawValue)
        j.add("size", layout.size)
        j.addRaw("output", layout.output.map(ProtocolLine.string) ?? "null")
        j.addRaw("regions", ProtocolLine.array(regions))
        return j.line
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
