#if canImport(Glibc)
import Glibc
#endif

/// A failed system or library call: which call, on what, and the errno it returned.
public struct SystemCallError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The C function that failed, e.g. `open` or `libevdev_new_from_fd`.
    public var call: String
    /// The errno value (positive).
    public var code: Int32
    /// What the call was about (a path, a client), for messages.
    public var subject: String?

    public init(_ call: String, code: Int32, subject: String? = nil) {
        self.call = call
        self.code = code
        self.subject = subject
    }

    /// Captures the current `errno`.
    public static func current(_ call: String, subject: String? = nil) -> SystemCallError {
        SystemCallError(call, code: errno, subject: subject)
    }

    public var description: String {
        let reason = String(cString: strerror(code))
        if let subject { return "\(subject): \(call) failed: \(reason) (errno \(code))" }
        return "\(call) failed: \(reason) (errno \(code))"
    }
}

/// Calls `body` again while it fails with EINTR (returns -1 and sets errno to EINTR).
@inlinable
public func retryingOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> T {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
