#if canImport(Glibc)
import Glibc
#endif
import CGestureSys

/// Fills a `sockaddr_un` for `path` ("@name" for the abstract namespace) and calls `body` with it;
/// nil when the path does not fit.
public func withUnixAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !bytes.isEmpty, bytes.count < capacity else { return nil }
    if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in bytes.enumerated() { raw[i] = b }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
}

/// Creating the listening Unix socket (start-up only; failures are reported, not retried).
public enum UnixListener {
    /// Whether systemd passed this process a listening socket (LISTEN_PID is ours, LISTEN_FDS ≥ 1);
    /// leaves the environment as it is.
    public static var isActivated: Bool {
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
              let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1 else { return false }
        return true
    }

    /// The fd systemd passed (LISTEN_FDS, socket activation), if any; made non-blocking and close-on-exec.
    public static func activatedSocket() -> FileDescriptor? {
        guard isActivated else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return FileDescriptor(rawValue: fd)
    }

    /// Creates, binds and listens on a non-blocking Unix stream socket at `path` with `mode`, and
    /// `owner` / `group` (names or numbers) when given. A stale socket file is replaced; a live
    /// one (another daemon) is an error; a missing parent directory is created (one level).
    public static func listen(path: String, mode: UInt32, owner: String?, group: String?,
                              backlog: Int32 = 128) throws(SystemCallError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError.current("socket", subject: path) }
        var bound = false
        do throws(SystemCallError) {
            var st = stat()
            if lstat(path, &st) == 0 {
                guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw SystemCallError("bind", errno: Errno(rawValue: EEXIST), subject: path) }
                let probe = try? UnixSocket.connect(to: path)
                if let probe { Glibc.close(probe) }
                if probe != nil {
                    throw SystemCallError("bind", errno: Errno(rawValue: EADDRINUSE), subject: "\(path) (another gestured is listening)")
                }
                unlink(path)
            }
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty && access(parent, F_OK) != 0 && mkdir(parent, 0o755) != 0 {
                throw SystemCallError.current("mkdir", subject: parent)
            }
            let oldMask = umask(0o177)
            let rc = withUnixAddress(path) { bind(fd, $0, $1) }
            umask(oldMask)
            guard let rc else { throw SystemCallError("bind", errno: Errno(rawValue: ENAMETOOLONG), subject: path) }
            if rc != 0 { throw SystemCallError.current("bind", subject: path) }
            bound = true
            if chmod(path, mode_t(mode)) != 0 { throw SystemCallError.current("chmod", subject: path) }
            if owner != nil || group != nil {
                var uid = uid_t.max
                var gid = gid_t.max
                if let owner {
                    if let id = UInt32(owner) ?? Accounts.userID(named: owner) { uid = id } else {
                        throw SystemCallError("getpwnam", errno: .noSuchEntry, subject: "socket owner '\(owner)'")
                    }
                }
                if let group {
                    if let id = UInt32(group) ?? Accounts.groupID(named: group) { gid = id } else {
                        throw SystemCallError("getgrnam", errno: .noSuchEntry, subject: "socket group '\(group)'")
                    }
                }
                if chown(path, uid, gid) != 0 { throw SystemCallError.current("chown", subject: path) }
            }
            if Glibc.listen(fd, backlog) != 0 { throw SystemCallError.current("listen", subject: path) }
        } catch {
            Glibc.close(fd)
            if bound { unlink(path) }
            throw error
        }
        return FileDescriptor(rawValue: fd)
    }
}

/// Connecting to a Unix socket (a client's side: the daemon's socket, a compositor's).
public enum UnixSocket {
    /// A blocking, close-on-exec stream socket connected to `path` ("@name": the abstract
    /// namespace), the connect retried after EINTR; the error names the call and the path.
    public static func connect(to path: String, calls: some SessionCalls = LinuxSessionCalls.shared) throws(SystemCallError) -> Int32 {
        let fd = try calls.unixStreamSocket().get("socket", subject: path)
        if case .failure(let error) = retryingOnInterrupt({ calls.connectOnce(fd, to: path) }) {
            calls.closeDescriptor(fd)
            throw SystemCallError("connect", errno: error, subject: path)
        }
        return fd
    }
}
