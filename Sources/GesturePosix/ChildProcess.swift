#if canImport(Glibc)
import Glibc
#endif

/// Runs programs from a session process: one that is waited for with this process's streams
/// (`gesturectl`'s `systemctl`), one whose standard output is collected within a deadline and a
/// size limit (`kscreen-doctor -j`): a program that hangs is killed, one that writes too much is
/// cut off.
public enum ChildProcess {
    /// How `run` ended.
    public enum Failure: Error, Equatable, Sendable {
        /// It could not be started (ENOENT: not found).
        case notStarted(Errno)
        /// It ran past its deadline or wrote more than the limit, and was killed.
        case killed
        /// It exited with a non-zero status (128 + n: killed by signal n).
        case failed(status: Int32)
    }

    /// The exit status of a raw wait status: the code, or 128 + the signal.
    public static func exitStatus(_ waitStatus: Int32) -> Int32 {
        (waitStatus & 0x7f) == 0 ? (waitStatus >> 8) & 0xff : 128 + (waitStatus & 0x7f)
    }

    /// Runs `program` (PATH lookup unless it has a "/") with this process's streams and environment
    /// and waits for it: its exit status.
    public static func run(_ program: String, _ arguments: [String], quietOutput: Bool = false,
                           calls: some SessionCalls = LinuxSessionCalls.shared) -> Result<Int32, Errno> {
        let spawned = calls.spawn(program, arguments, environment: ProcessEnvironment.entries(),
                                  pipeOutput: false, quietOutput: quietOutput)
        guard case .success(let child) = spawned else { return spawned.map { _ in 0 } }
        return retryingOnInterrupt { calls.waitOnce(child.pid) }.map(exitStatus)
    }

    /// Runs `program` with this process's environment plus `extraEnvironment` (first: it wins),
    /// standard input and error on /dev/null, and collects its standard output.
    public static func output(_ program: String, _ arguments: [String], extraEnvironment: [String] = [],
                              timeoutMicroseconds: Int64, limit: Int = 1 << 20,
                              calls: some SessionCalls = LinuxSessionCalls.shared) -> Result<[UInt8], Failure> {
        let spawned = calls.spawn(program, arguments, environment: extraEnvironment + ProcessEnvironment.entries(),
                                  pipeOutput: true, quietOutput: false)
        guard case .success(let child) = spawned, let pipe = child.output else {
            if case .failure(let error) = spawned { return .failure(.notStarted(error)) }
            return .failure(.notStarted(.invalidArgument))
        }
        defer { calls.closeDescriptor(pipe) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let deadline = calls.monotonicNow() + timeoutMicroseconds
        var finished = false
        while !finished && output.count <= limit {
            var descriptors = [pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)]
            guard case .success(let ready) = Poll.wait(&descriptors, until: deadline, calls: calls), ready > 0 else { break }
            let read = buffer.withUnsafeMutableBytes { raw in retryingOnInterrupt { calls.readOnce(pipe, into: raw) } }
            switch read {
            case .success(0): finished = true
            case .success(let n): output += buffer[0..<n]
            case .failure: finished = true
            }
        }
        if !finished || output.count > limit { calls.killProcess(child.pid) }
        let status = retryingOnInterrupt { calls.waitOnce(child.pid) }.map(exitStatus)
        guard finished, output.count <= limit else { return .failure(.killed) }
        switch status {
        case .success(0): return .success(output)
        case .success(let code): return .failure(.failed(status: code))
        case .failure: return .failure(.killed)
        }
    }
}
