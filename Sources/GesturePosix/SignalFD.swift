#if canImport(Glibc)
import Glibc
#endif
import CGestureSys

/// A signalfd for signals that were blocked in every thread with `SignalFD.block`.
public final class SignalFD {
    public let fd: FileDescriptor

    public init(signals: [Int32]) throws(SystemCallError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        fd = try Errno.result(signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)))
            .map(FileDescriptor.init(rawValue:)).get("signalfd")
    }
    deinit { LinuxSystemCalls.shared.close(fd) }

    /// Blocks `signals` in the calling thread (call before any other thread starts).
    public static func block(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    /// Every pending signal number.
    public func drain() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while case .success(size) = retryingOnInterrupt({ Errno.result(read(fd.rawValue, &info, size)) }) {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}
