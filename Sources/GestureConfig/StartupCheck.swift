/// What a configuration needs from the machine before the daemon can start: the socket's group and
/// owner exist and can be given the socket by the user the daemon runs as, and the socket's
/// directory exists or can be made. `gestured check-config` and `gestured run` both ask
/// `StartupCheck.problems`, so a file one accepts the other starts with (docs/configuration.md,
/// "What check-config checks").
public enum StartupCheck {
    /// The longest path a Unix socket address holds (sun_path less its terminating NUL).
    public static let maximumSocketPathBytes = 107

    /// Every problem that would stop the daemon creating its socket at `socketPath` as the user
    /// `host` describes; empty when it would start. `socketPathFromCommandLine`: the path came from
    /// `--socket` (errors about it name the option, not the file).
    public static func problems(_ configuration: Configuration, socketPath: String, socketPathFromCommandLine: Bool,
                                host: HostFacts) -> [ConfigError] {
        let origin = configuration.origin
        let settings = configuration.socket
        var problems: [ConfigError] = []
        let who = host.uid == 0 ? "root" : "uid \(host.uid)"

        if let owner = settings.owner {
            if let uid = UInt32(owner) ?? host.userID(owner) {
                if host.uid != 0 && uid != host.uid {
                    problems.append(origin.error(at: "socket.owner",
                        "socket owner '\(owner)': only root can give the socket to another user, and the daemon "
                        + "would run as \(who): run it as root, or remove 'owner'"))
                }
            } else {
                problems.append(origin.error(at: "socket.owner",
                    "socket owner '\(owner)': no such user on this machine: create it "
                    + "(`sudo useradd --system --no-create-home \(owner)`) or remove 'owner'"))
            }
        }
        if let group = settings.group {
            if let gid = UInt32(group) ?? host.groupID(group) {
                if host.uid != 0 && !host.groups.contains(gid) {
                    problems.append(origin.error(at: "socket.group",
                        "socket group '\(group)': \(who) is not a member, so the daemon could not give it the socket: "
                        + "run it as root, add the user to the group (`sudo usermod -aG \(group) $USER`, then log in "
                        + "again), or remove 'group'"))
                }
            } else {
                problems.append(origin.error(at: "socket.group",
                    "socket group '\(group)' does not exist on this machine: create it with "
                    + "`sudo groupadd --system \(group)` (installing the gestured package does), or remove 'group'"))
            }
        }

        func pathError(_ message: String) -> ConfigError {
            socketPathFromCommandLine
                ? ConfigError(file: "--socket", line: 0, column: 0, message: message)
                : origin.error(at: "socket.path", message)
        }
        let hint = socketPathFromCommandLine
            ? "choose another --socket"
            : "run as root, set 'path' in 'socket', or pass --socket (e.g. $XDG_RUNTIME_DIR/gestured/gestured.sock)"
        if socketPath.hasPrefix("@") {
            // The abstract namespace: no file, no directory.
        } else if socketPath.utf8.count > maximumSocketPathBytes {
            problems.append(pathError("socket path '\(socketPath)' is \(socketPath.utf8.count) bytes, more than the "
                                      + "\(maximumSocketPathBytes) a Unix socket address holds"))
        } else {
            let directory = parent(of: socketPath)
            if host.isDirectory(directory) {
                if !host.canCreateEntries(directory) {
                    problems.append(pathError("socket directory '\(directory)' is not writable by \(who), "
                                              + "so the socket cannot be created there: \(hint)"))
                }
            } else {
                let above = parent(of: directory)
                if !host.isDirectory(above) {
                    problems.append(pathError("socket directory '\(directory)' does not exist, nor does '\(above)' "
                                              + "(gestured creates one directory level): \(hint)"))
                } else if !host.canCreateEntries(above) {
                    problems.append(pathError("socket directory '\(directory)' does not exist and \(who) cannot "
                                              + "create it in '\(above)': \(hint)"))
                }
            }
        }
        return problems
    }

    /// `/run/gestured/gestured.sock` → `/run/gestured`; `/x` → `/`; `x` → `.`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }
}

/// The facts about the machine and the running user that `StartupCheck` needs; the daemon reads
/// the real ones (GestureDaemon's `HostFacts.current`), tests describe a machine.
public struct HostFacts: Sendable {
    /// The uid the daemon runs as.
    public var uid: UInt32
    /// Its effective and supplementary group ids.
    public var groups: Set<UInt32>
    /// A group's id by name, nil when there is no such group.
    public var groupID: @Sendable (String) -> UInt32?
    /// A user's id by name, nil when there is no such user.
    public var userID: @Sendable (String) -> UInt32?
    /// Whether the path is a directory.
    public var isDirectory: @Sendable (String) -> Bool
    /// Whether this user may create files in the directory (write and search permission).
    public var canCreateEntries: @Sendable (String) -> Bool

    public init(uid: UInt32, groups: Set<UInt32>, groupID: @escaping @Sendable (String) -> UInt32?,
                userID: @escaping @Sendable (String) -> UInt32?, isDirectory: @escaping @Sendable (String) -> Bool,
                canCreateEntries: @escaping @Sendable (String) -> Bool) {
        self.uid = uid
        self.groups = groups
        self.groupID = groupID
        self.userID = userID
        self.isDirectory = isDirectory
        self.canCreateEntries = canCreateEntries
    }
}
