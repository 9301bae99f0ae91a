#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit (RLIMIT_NOFILE). The daemon needs up to two descriptors per client
/// (its socket and, when it streams through a pipe, the pipe's write end) for 520 clients, besides
/// its devices: more than the soft limit of 1024 many systems start services with. The hard limit
/// is usually far higher (systemd: 524288), and a process that never uses `select(2)` may raise
/// its soft limit up to it.
public enum DescriptorLimit {
    /// What the soft limit should become to allow `wanted` descriptors: nil when it already does;
    /// otherwise `wanted`, or the hard limit when that is lower (`RLIM_INFINITY` is any size).
    public static func raisedSoftLimit(soft: UInt64, hard: UInt64, wanted: UInt64) -> UInt64? {
        guard soft < wanted else { return nil }
        let raised = min(wanted, hard)
        return raised > soft ? raised : nil
    }

    /// Raises the soft limit to allow `wanted` descriptors where the hard limit permits. Returns the
    /// limit before and after when it changed, nil when it did not need to or could not.
    public static func raise(toAllow wanted: UInt64) -> (before: UInt64, after: UInt64)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0,
              let raised = raisedSoftLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max), wanted: wanted)
        else { return nil }
        let before = UInt64(limit.rlim_cur)
        limit.rlim_cur = rlim_t(raised)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return (before, raised)
    }
}
