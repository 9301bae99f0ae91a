#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value as a type, so call sites match on names (`.wouldBlock`) rather than integers.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    // The names below are computed and inlinable, not `static let`: a stored static of this
    // module is reached from the others through a call (its lazy initialisation) at every use,
    // and the daemon's read and send check some on every frame.

    /// The calling thread's `errno` now (read it right after the failed call).
    @inlinable public static var current: Errno { Errno(rawValue: errno) }

    @inlinable public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// EAGAIN (EWOULDBLOCK is the same value on Linux): a non-blocking fd has nothing to give or take.
    @inlinable public static var wouldBlock: Errno { Errno(rawValue: EAGAIN) }
    @inlinable public static var noDevice: Errno { Errno(rawValue: ENODEV) }
    @inlinable public static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    @inlinable public static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
    @inlinable public static var connectionAborted: Errno { Errno(rawValue: ECONNABORTED) }
    @inlinable public static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
    @inlinable public static var badAddress: Errno { Errno(rawValue: EFAULT) }
    @inlinable public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    @inlinable public static var noSuchEntry: Errno { Errno(rawValue: ENOENT) }
    @inlinable public static var tooManyOpenFiles: Errno { Errno(rawValue: EMFILE) }
    @inlinable public static var tooManyOpenFilesInSystem: Errno { Errno(rawValue: ENFILE) }
    @inlinable public static var noBufferSpace: Errno { Errno(rawValue: ENOBUFS) }
    @inlinable public static var outOfMemory: Errno { Errno(rawValue: ENOMEM) }
    @inlinable public static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }

    /// Errors only a bug in gestured can cause on a descriptor it owns: a closed or never-opened
    /// fd (EBADF) or a bad pointer (EFAULT). Carrying on could read, write or close someone else's
    /// file, so the wrappers stop the process instead (as swift-nio does).
    public var isProgrammerError: Bool { self == .badFileDescriptor || self == .badAddress }

    /// The peer went away: the normal end of a connection, not worth a warning.
    public var isPeerGone: Bool { self == .brokenPipe || self == .connectionReset || self == .connectionAborted }

    public var description: String { "\(String(cString: strerror(rawValue))) (errno \(rawValue))" }
}

extension Errno {
    /// A C call's result in the "-1 and errno" convention (read, send, accept, epoll_ctl...).
    @inlinable
    public static func result<T: FixedWidthInteger>(_ value: T) -> Result<T, Errno> {
        value == -1 ? .failure(.current) : .success(value)
    }

    /// A result in the "negative errno" convention (libevdev, libudev).
    @inlinable
    public static func result(negative value: Int32) -> Result<Int32, Errno> {
        value < 0 ? .failure(Errno(rawValue: -value)) : .success(value)
    }

    /// A result in the "returns the errno, 0 on success" convention (clock_nanosleep, posix_spawn).
    @inlinable
    public static func result(returned value: Int32) -> Result<Void, Errno> {
        value == 0 ? .success(()) : .failure(Errno(rawValue: value))
    }
}

/// Stops the process when a call failed in a way only a bug can explain (`Errno.isProgrammerError`,
/// plus `alsoBug` for calls where, say, EINVAL can only mean wrong arguments from us).
@inlinable
public func preconditionNotABug(_ error: Errno, _ call: StaticString, fd: Int32, alsoBug: Errno? = nil) {
    if error.isProgrammerError || error == alsoBug {
        preconditionFailure("\(call) on fd \(fd) failed with \(error): a bug in gestured")
    }
}

/// The one place gestured retries a call that a signal interrupted (EINTR). `call` makes one
/// attempt and reports its errno (use `Errno.result`); every other outcome is returned as is.
/// close(2) is the exception and never goes through here: on Linux the fd is gone even after
/// EINTR, so a retry could close a descriptor another thread just opened.
@inlinable
public func retryingOnInterrupt<T>(_ call: () -> Result<T, Errno>) -> Result<T, Errno> {
    while true {
        let result = call()
        if case .failure(.interrupted) = result { continue }
        return result
    }
}
