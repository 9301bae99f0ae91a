#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon's socket is, when nobody says: the one lookup `gestured run` (where to
/// listen), `gesturectl` and the scripts (where to connect) share (docs/daemon.md, "The socket
/// path").
///
/// - `$GESTURED_SOCKET`, when set and not empty;
/// - as root: `/run/gestured/gestured.sock` (the system service's);
/// - as any other user: `$XDG_RUNTIME_DIR/gestured/gestured.sock` (the user unit's); a client
///   that finds no socket there tries the system one next.
///
/// The daemon takes `--socket`, then the config's `socket.path`, then this lookup.
public struct SocketPath: Sendable, Equatable {
    /// The system service's socket.
    public static let system = "/run/gestured/gestured.sock"
    /// Under `$XDG_RUNTIME_DIR`.
    public static let userRelative = "gestured/gestured.sock"

    /// The paths to try, in order; the daemon listens on the first. Empty when none can be named
    /// (not root, no `$GESTURED_SOCKET`, no `$XDG_RUNTIME_DIR`).
    public let candidates: [String]

    public init(environment: (String) -> String?, isRoot: Bool) {
        if let explicit = environment("GESTURED_SOCKET"), !explicit.isEmpty {
            candidates = [explicit]
        } else if isRoot {
            candidates = [Self.system]
        } else if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            let base = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            candidates = [base + "/" + Self.userRelative, Self.system]
        } else {
            candidates = [Self.system]
            isUnnamed = true
            return
        }
        isUnnamed = false
    }

    /// True when not root and neither `$GESTURED_SOCKET` nor `$XDG_RUNTIME_DIR` is set: a client
    /// can still try the system socket, a daemon has nowhere of its own to listen.
    public let isUnnamed: Bool

    /// This process's environment and effective uid.
    public static var current: SocketPath {
        SocketPath(environment: { getenv($0).map { String(cString: $0) } }, isRoot: geteuid() == 0)
    }

    /// Where a daemon listens, or why it cannot choose.
    public var forDaemon: Result<String, SocketPathError> {
        isUnnamed ? .failure(SocketPathError()) : .success(candidates[0])
    }

    /// Where a client connects: the first candidate that exists as a file, else the first.
    public func forClient(exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> String {
        candidates.first(where: exists) ?? candidates[0]
    }

    /// The lookup in one line, for messages and `--help`.
    public static let summary =
        "$GESTURED_SOCKET, else /run/gestured/gestured.sock as root, else $XDG_RUNTIME_DIR/gestured/gestured.sock"
}

/// A daemon not run as root, with neither `$GESTURED_SOCKET` nor `$XDG_RUNTIME_DIR` set.
public struct SocketPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String {
        "no socket path: not running as root and $XDG_RUNTIME_DIR is not set, so there is no place of "
            + "this user's to put it; give --socket PATH (or set GESTURED_SOCKET, or 'path' in the "
            + "config's 'socket'), e.g. --socket /tmp/gestured-$(id -u).sock, and the same to gesturectl"
    }
}
