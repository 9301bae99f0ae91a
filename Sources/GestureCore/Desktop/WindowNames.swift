/// How a line names the window its region follows (docs/protocol.md, "The window a line is about"):
/// the compositor's id, the app, the title and the window rule it matched (nil when none did).
/// Gesture, explain and touch lines whose region is a window region carry it as
/// `"window":{"id":"12","app":"foot","title":"~","rule":"browser"}`.
public struct WindowName: Hashable, Sendable {
    public let id: String
    public let app: String
    public let title: String
    public let rule: String?
    /// `"window":{...}`, encoded once: a line copies these bytes after its `region` field.
    public let field: [UInt8]

    public init(id: String, app: String, title: String, rule: String?) {
        self.id = id
        self.app = app
        self.title = title
        self.rule = rule
        var object = JSONLine()
        object.add("id", id)
        object.add("app", app)
        object.add("title", title)
        if let rule { object.add("rule", rule) }
        field = Array(("\"window\":" + object.line).utf8)
    }

    /// The id of the window's region.
    public var regionID: String { DesktopRegions.windowPrefix + id }

    /// How people read it: `window:12 (foot "~")` (as `DesktopWindow.label`).
    public var label: String { "\(regionID) (\(app) \"\(title)\")" }
}

/// The names of the windows of a desktop, by their region's id: what the line writers consult,
/// when they write a line, for the lines whose region is a window's (nothing is added to the
/// engine's outputs, so a frame pays nothing for it). Empty without a desktop: a writer then asks
/// one question (`isEmpty`) and nothing more.
public struct WindowNames: Sendable {
    private var byRegion: [String: WindowName] = [:]

    public init() {}

    /// The desktop's windows with the id of the first rule of `rules` each matches (the rule the
    /// engine places it with, GestureEngine+Desktop.swift); the first of a repeated id wins.
    public init(desktop: Desktop?, rules: [WindowRule]) {
        for w in desktop?.windows ?? [] where byRegion[w.regionID] == nil {
            let rule = WindowRule.firstMatch(rules, for: w).map { rules[$0].id }
            byRegion[w.regionID] = WindowName(id: w.id, app: w.app, title: w.title, rule: rule)
        }
    }

    public var isEmpty: Bool { byRegion.isEmpty }
    public var count: Int { byRegion.count }

    /// The window region `region` follows, or nil (not a window's, or not on this desktop).
    public subscript(region region: String) -> WindowName? {
        guard region.hasPrefix(DesktopRegions.windowPrefix) else { return nil }
        return byRegion[region]
    }

    /// The window of the region an output is about (a gesture's or explain line's region, a
    /// touch's hit region), or nil; forwarding verdicts name no region.
    public func window(of output: EngineOutput) -> WindowName? {
        if byRegion.isEmpty { return nil }
        switch output {
        case .gesture(let g): return self[region: g.region]
        case .explain(let e): return self[region: e.region]
        case .touch(let t): return t.region.flatMap { self[region: $0] }
        case .forwarding: return nil
        }
    }
}
