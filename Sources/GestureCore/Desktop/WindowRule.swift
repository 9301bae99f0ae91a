/// A window rule (docs/desktop.md, the config's `windows:`): which windows it matches, which of
/// the screen's gestures it turns off over them, and the gestures every matching window gets.
public struct WindowRule: Hashable, Sendable {
    public var id: String
    public var match: WindowMatch
    /// Ids of ancestor (screen) gestures that never get touches over these windows; `*`: all of them.
    public var disable: [String]
    /// The rule's gestures; each matching window gets its own instance, on its own region.
    public var gestures: [RecognizerSpec]

    public init(id: String, match: WindowMatch = .init(), disable: [String] = [], gestures: [RecognizerSpec] = []) {
        self.id = id
        self.match = match
        self.disable = disable
        self.gestures = gestures
    }

    /// The index of the first rule matching `window`, or nil.
    public static func firstMatch(_ rules: [WindowRule], for window: DesktopWindow) -> Int? {
        rules.firstIndex { $0.match.matches(window) }
    }
}

/// What a window rule matches; every key given must match.
public struct WindowMatch: Hashable, Sendable {
    /// Globs on the app id (Wayland) or class (X11), case-sensitive: the window matches when any
    /// one does; empty: any app.
    public var apps: [String]
    /// A glob on the title.
    public var title: String?
    public var floating: Bool?
    public var fullscreen: Bool?

    public init(app: String? = nil, apps: [String] = [], title: String? = nil, floating: Bool? = nil, fullscreen: Bool? = nil) {
        self.apps = (app.map { [$0] } ?? []) + apps
        self.title = title
        self.floating = floating
        self.fullscreen = fullscreen
    }

    public func matches(_ w: DesktopWindow) -> Bool {
        if !apps.isEmpty, !apps.contains(where: { Glob.matches($0, w.app) }) { return false }
        if let title, !Glob.matches(title, w.title) { return false }
        if let floating, floating != w.floating { return false }
        if let fullscreen, fullscreen != w.fullscreen { return false }
        return true
    }
}

/// Shell-style globs for window rules: `*` any run of characters, `?` one character, `[abc]`,
/// `[a-z]` and `[!abc]` one of a set; anything else (and `\x`) itself. Case-sensitive, on
/// characters (grapheme clusters), no special meaning for `/`.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0
        var starP = -1, starT = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "*" {
                starP = pi
                starT = ti
                pi += 1
                continue
            }
            if pi < p.count, let (ok, next) = single(p, pi, t[ti]), ok {
                pi = next
                ti += 1
                continue
            }
            guard starP >= 0 else { return false }
            pi = starP + 1
            starT += 1
            ti = starT
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Whether the pattern element at `i` matches `c`, and the index after the element.
    private static func single(_ p: [Character], _ i: Int, _ c: Character) -> (Bool, Int)? {
        switch p[i] {
        case "?": return (true, i + 1)
        case "\\" where i + 1 < p.count: return (p[i + 1] == c, i + 2)
        case "[":
            var j = i + 1
            let negated = j < p.count && (p[j] == "!" || p[j] == "^")
            if negated { j += 1 }
            var found = false
            var first = true
            while j < p.count && (p[j] != "]" || first) {
                first = false
                if j + 2 < p.count, p[j + 1] == "-", p[j + 2] != "]" {
                    if p[j] <= c && c <= p[j + 2] { found = true }
                    j += 3
                } else {
                    if p[j] == c { found = true }
                    j += 1
                }
            }
            // An unclosed `[` is itself.
            guard j < p.count else { return (c == "[", i + 1) }
            return (found != negated, j + 1)
        default: return (p[i] == c, i + 1)
        }
    }
}
