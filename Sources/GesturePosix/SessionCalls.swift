#if canImport(Glibc)
import Glibc
#endif

/// The kernel calls a session process makes (the desktop bridge, `gesturectl`, the view): a Unix
/// socket connected to a peer, a wait on descriptors, a program run with its output read. The seam
/// where `GesturePosixTests` script the kernel (`EINTR`, a refused connect, a program that fails) under
/// `UnixSocket.connect`, `Poll.wait` and `ChildProcess`, as `SystemCalls` is the daemon loop's.
/// Each requirement makes exactly ONE attempt and reports the errno; retries happen above it.
public protocol SessionCalls {
    /// socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC): blocking.
    func unixStreamSocket() -> Result<Int32, Errno>
    /// connect(2) to `path` ("@name": the abstract namespace); ENAMETOOLONG when it does not fit.
    func connectOnce(_ socket: Int32, to path: String) -> Result<Void, Errno>
    /// poll(2) on `descriptors` for at most `timeout` ms (-1: forever); how many are ready.
    func pollOnce(_ descriptors: UnsafeMutableBufferPointer<pollfd>, timeout: Int32) -> Result<Int, Errno>
    /// read(2); 0 is the end of the data.
    func readOnce(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    /// close(2); never retried (see `retryingOnInterrupt`).
    func closeDescriptor(_ fd: Int32)
    /// posix_spawn(p) of `program` (looked up in PATH unless it has a "/") with `arguments`
    /// (argv[0] is `program`) and `environment` ("NAME=value"); standard input from /dev/null when
    /// `pipeOutput`, standard output then into a new pipe whose read end is returned and standard
    /// error to /dev/null; otherwise the streams are this process's (`quietOutput`: standard
    /// output to /dev/null).
    func spawn(_ program: String, _ arguments: [String], environment: [String], pipeOutput: Bool,
               quietOutput: Bool) -> Result<(pid: pid_t, output: Int32?), Errno>
    /// waitpid(2) for `pid`: its raw wait status.
    func waitOnce(_ pid: pid_t) -> Result<Int32, Errno>
    /// kill(pid, SIGKILL).
    func killProcess(_ pid: pid_t)
    /// CLOCK_MONOTONIC, µs.
    func monotonicNow() -> Int64
}

/// The real kernel for a session process.
public struct LinuxSessionCalls: SessionCalls, Sendable {
    public static let shared = LinuxSessionCalls()
    public init() {}

    public func unixStreamSocket() -> Result<Int32, Errno> {
        Errno.result(socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0))
    }

    public func connectOnce(_ socket: Int32, to path: String) -> Result<Void, Errno> {
        withUnixAddress(path) { address, length in Errno.result(connect(socket, address, length)).map { _ in () } }
            ?? .failure(Errno(rawValue: ENAMETOOLONG))
    }

    public func pollOnce(_ descriptors: UnsafeMutableBufferPointer<pollfd>, timeout: Int32) -> Result<Int, Errno> {
        Errno.result(poll(descriptors.baseAddress, nfds_t(descriptors.count), timeout)).map(Int.init)
    }

    public func readOnce(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        Errno.result(read(fd, buffer.baseAddress, buffer.count))
    }

    public func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    public func spawn(_ program: String, _ arguments: [String], environment: [String], pipeOutput: Bool,
                      quietOutput: Bool) -> Result<(pid: pid_t, output: Int32?), Errno> {
        var ends: [Int32] = [-1, -1]
        if pipeOutput {
            guard pipe(&ends) == 0 else { return .failure(.current) }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipeOutput {
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        } else if quietOutput {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = program.contains("/") ? posix_spawn(&pid, program, &actions, nil, argv, envp)
                                            : posix_spawnp(&pid, program, &actions, nil, argv, envp)
        if pipeOutput { close(ends[1]) }
        guard spawned == 0 else {
            if pipeOutput { close(ends[0]) }
            return .failure(Errno(rawValue: spawned))
        }
        return .success((pid, pipeOutput ? ends[0] : nil))
    }

    public func waitOnce(_ pid: pid_t) -> Result<Int32, Errno> {
        var status: Int32 = 0
        return Errno.result(waitpid(pid, &status, 0)).map { _ in status }
    }

    public func killProcess(_ pid: pid_t) { _ = kill(pid, SIGKILL) }

    public func monotonicNow() -> Int64 { monotonicMicroseconds() }
}
