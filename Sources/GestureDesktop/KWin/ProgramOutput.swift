#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// Runs a program and collects its standard output (standard error to /dev/null), within a deadline
/// and a size limit: a program that hangs is killed, one that writes too much is cut off. Used for
/// `kscreen-doctor -j` (KDE output rotations), only when the outputs changed.
enum ProgramOutput {
    /// The output, or nil when the program cannot be run, fails, or overruns.
    static func run(_ program: String, _ arguments: [String], extraEnvironment: [String] = [],
                    timeoutMicroseconds: Int64 = requestTimeoutMicroseconds, limit: Int = 1 << 20) -> [UInt8]? {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { return nil }
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        defer { close(pipeFDs[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var environment: [UnsafeMutablePointer<CChar>?] = extraEnvironment.map { strdup($0) }
        var entry = environ
        while let pointer = entry.pointee {
            environment.append(strdup(pointer))
            entry += 1
        }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environment)
        close(pipeFDs[1])
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let deadline = monotonicMicroseconds() + timeoutMicroseconds
        var finished = false
        while !finished {
            let left = deadline - monotonicMicroseconds()
            guard left > 0, output.count <= limit else { break }
            var descriptor = pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: (left + 999) / 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { finished = true } else { output += buffer[0..<n] }
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard finished, status == 0 else { return nil }
        return output
    }
}
