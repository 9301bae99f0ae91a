import GestureCore

/// Each socket client names its attached regions and gestures in its own namespace: inside the
/// engine they are qualified as "N:id" (N the client's number; config ids cannot contain ':'), and
/// every line a client receives carries its own ids bare. Other clients see the qualified form.
enum ClientNamespace {
    static func qualify(_ id: String, client: Int) -> String { "\(client):\(id)" }

    /// The owning client and the client's own id of a qualified id; nil for a config id.
    static func split(_ id: String) -> (client: Int, local: Substring)? {
        // Asked for every published line; config ids (nearly all) have no ':'. A native string is
        // searched over its bytes in place (String.UTF8View's own search walks indices).
        let hasColon = id.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ":")) }
            ?? id.utf8.contains(UInt8(ascii: ":"))
        guard hasColon, let colon = id.utf8.firstIndex(of: UInt8(ascii: ":")), let client = Int(id[..<colon]) else { return nil }
        return (client, id[id.index(after: colon)...])
    }

    /// Whether `id` belongs to a client's namespace (qualified).
    static func isQualified(_ id: String) -> Bool { split(id) != nil }

    /// `id` as client `viewer` sees it: bare when it is the viewer's own, unchanged otherwise.
    static func local(_ id: String, for viewer: Int) -> String {
        guard let (owner, local) = split(id), owner == viewer else { return id }
        return String(local)
    }

    static func qualify(_ region: RegionSpec, client: Int) -> RegionSpec {
        var r = region
        r.id = qualify(r.id, client: client)
        r.redirect = r.redirect.map { qualify($0, client: client) }
        r.children = r.children.map { qualify($0, client: client) }
        return r
    }

    static func qualify(_ recognizer: RecognizerSpec, client: Int) -> RecognizerSpec {
        var g = recognizer
        g.id = qualify(g.id, client: client)
        g.region = qualify(g.region, client: client)
        g.requireToFail = g.requireToFail.map { qualify($0, client: client) }
        g.simultaneousWith = g.simultaneousWith.map { qualify($0, client: client) }
        return g
    }

    /// A gesture, touch or explain line as client `viewer` sees it.
    static func localized(_ output: EngineOutput, for viewer: Int) -> EngineOutput {
        switch output {
        case .gesture(var g):
            g.gesture = local(g.gesture, for: viewer)
            g.region = local(g.region, for: viewer)
            return .gesture(g)
        case .touch(var t):
            t.region = t.region.map { local($0, for: viewer) }
            t.responder = t.responder.map { local($0, for: viewer) }
            t.chain = t.chain.map { $0.map { local($0, for: viewer) } }
            return .touch(t)
        case .explain(var e):
            e.gesture = local(e.gesture, for: viewer)
            e.region = local(e.region, for: viewer)
            return .explain(e)
        case .forwarding:
            return output
        }
    }
}
