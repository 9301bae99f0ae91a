/// Who may read the view (docs/view.md, "Security"): only requests whose path starts with the
/// random token, whose `Host` is the loopback address the server listens on (no DNS rebinding),
/// and whose `Origin`, when the browser sends one, is the page's own. Pure: the server asks it for
/// every request before doing anything else.
public struct ViewAccess: Sendable {
    public let token: String
    public let port: UInt16

    public init(token: String, port: UInt16) {
        self.token = token
        self.port = port
    }

    /// What a request may have.
    public enum Route: Equatable, Sendable {
        case page
        case asset(String)
        case stream
        /// The settings page's config: GET describes it, POST saves an edit (docs/view.md, "Settings").
        case settings
        /// Browsers ask `/favicon.ico` of every page: answered empty (204), token or not.
        case noIcon
    }

    public enum Decision: Equatable, Sendable {
        case allowed(Route)
        /// HTTP status and the reason, sent as the body.
        case refused(Int, String)
    }

    /// The files of share/view a page may load.
    public static let assets: Set<String> = ["index.html", "view.js", "view.css"]

    /// The origins the page itself has.
    public var origins: [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

    public func decide(path: String, host: String?, origin: String?) -> Decision {
        guard let host, origins.contains("http://" + host.lowercased()) else {
            return .refused(403, "refused: Host must be 127.0.0.1:\(port)")
        }
        if let origin, !origins.contains(origin.lowercased()) {
            return .refused(403, "refused: foreign Origin")
        }
        if path == "/favicon.ico" { return .allowed(.noIcon) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let first = parts.first, Self.equalInConstantTime(String(first), token) else {
            return .refused(403, "refused: the URL lacks the view's token (gesturectl view prints the URL)")
        }
        let rest = parts.dropFirst().joined(separator: "/")
        switch rest {
        case "", "index.html": return .allowed(.page)
        case "stream": return .allowed(.stream)
        case "settings": return .allowed(.settings)
        default:
            return Self.assets.contains(rest) ? .allowed(.asset(rest)) : .refused(404, "not found")
        }
    }

    /// Compares without returning early, so the time taken says nothing of the token.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = x.count ^ y.count
        for i in 0..<max(x.count, y.count) {
            difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
        }
        return difference == 0
    }

    /// 32 random bytes as hex, from the system's secure generator (getrandom).
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<64).map { _ in digits[Int(generator.next() % 16)] })
    }
}
