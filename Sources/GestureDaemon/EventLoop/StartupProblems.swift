import GestureConfig
import GestureProtocol
import GesturePosix

/// The one decision, shared by `gestured run` and `gestured check-config`, of what in a loaded
/// configuration would stop the daemon starting on this machine as this user (StartupCheck).
/// `socketOverride`: `--socket`. `socketActivated`: systemd passed the socket, so its path, owner
/// and group in the file are not used and not checked.
public func startupProblems(_ configuration: Configuration, socketOverride: String?, socketActivated: Bool,
                            host: HostFacts = .current) -> [ConfigError] {
    if socketActivated { return [] }
    return StartupCheck.problems(configuration, socketPath: daemonSocketPath(configuration, override: socketOverride),
                                 socketPathFromCommandLine: socketOverride != nil, host: host)
}

/// The path the daemon creates its socket at: `--socket`, else the file's `socket.path`.
public func daemonSocketPath(_ configuration: Configuration, override: String?) -> String {
    if let path = override ?? configuration.socket.path { return path }
    // The shared lookup (docs/daemon.md, "The socket path"); its failure (no runtime directory) is
    // reported by `run` before any check.
    switch SocketPath.current.forDaemon {
    case .success(let path): return path
    case .failure: return SocketPath.system
    }
}

extension HostFacts {
    /// This process and this machine.
    public static var current: HostFacts {
        HostFacts(uid: Accounts.effectiveUserID, groups: Accounts.groupIDs,
                  groupID: { Accounts.groupID(named: $0) }, userID: { Accounts.userID(named: $0) },
                  isDirectory: { Accounts.isDirectory($0) }, canCreateEntries: { Accounts.canCreateEntries(in: $0) })
    }
}
