#if canImport(Glibc)
import Glibc
#endif

/// Users, groups and the running process's identity, by name or number (the socket's owner and
/// group, and the start-up check that they exist).
public enum Accounts {
    /// The gid of a group name, or nil when there is none.
    public static func groupID(named name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    /// The uid of a user name, or nil when there is none.
    public static func userID(named name: String) -> UInt32? {
        getpwnam(name).map { $0.pointee.pw_uid }
    }

    /// The effective uid.
    public static var effectiveUserID: UInt32 { geteuid() }

    /// The effective gid and every supplementary group of this process.
    public static var groupIDs: Set<UInt32> {
        var ids: Set<UInt32> = [getegid()]
        let count = getgroups(0, nil)
        guard count > 0 else { return ids }
        var list = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &list)
        if got > 0 { ids.formUnion(list.prefix(Int(got))) }
        return ids
    }

    /// Whether `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether this process may create entries in the directory (write and search permission,
    /// checked with the effective ids).
    public static func canCreateEntries(in directory: String) -> Bool {
        faccessat(AT_FDCWD, directory, W_OK | X_OK, AT_EACCESS) == 0
    }
}
