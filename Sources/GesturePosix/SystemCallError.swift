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

    public init(_ call: String, errno: Errno, subject: String? = nil) {
        self.init(call, code: errno.rawValue, subject: subject)
    }

    /// Captures the current `errno`.
    public static func current(_ call: String, subject: String? = nil) -> SystemCallError {
        SystemCallError(call, code: Glibc.errno, subject: subject)
    }

    public var errno: Errno { Errno(rawValue: code) }

    public var description: String {
        let reason = String(cString: strerror(code))
        if let subject { return "\(subject): \(call) failed: \(reason) (errno \(code))" }
        return "\(call) failed: \(reason) (errno \(code))"
    }
}

extension Result where Failure == Errno {
    /// The value, or a `SystemCallError` naming the call and its subject.
    @inlinable
    public func get(_ call: String, subject: String? = nil) throws(SystemCallError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw SystemCallError(call, errno: error, subject: subject)
        }
    }
}
