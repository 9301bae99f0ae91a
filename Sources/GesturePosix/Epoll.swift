#if canImport(Glibc)
import Glibc
#endif
import CGestureSys

/// epoll event bits. Computed and inlinable, as `Errno`'s names (no call at each use).
public struct EpollEvents: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public static var readable: EpollEvents { EpollEvents(rawValue: EPOLLIN.rawValue) }
    @inlinable public static var writable: EpollEvents { EpollEvents(rawValue: EPOLLOUT.rawValue) }
    /// The peer shut its writing side (EPOLLRDHUP).
    @inlinable public static var readHangUp: EpollEvents { EpollEvents(rawValue: EPOLLRDHUP.rawValue) }
    /// Always reported, never requested.
    @inlinable public static var hangUp: EpollEvents { EpollEvents(rawValue: EPOLLHUP.rawValue) }
    @inlinable public static var error: EpollEvents { EpollEvents(rawValue: EPOLLERR.rawValue) }
}

/// epoll_ctl operations.
public enum EpollOperation: Sendable {
    case add, modify, remove
    var rawValue: Int32 {
        switch self {
        case .add: EPOLL_CTL_ADD
        case .modify: EPOLL_CTL_MOD
        case .remove: EPOLL_CTL_DEL
        }
    }
}

/// An epoll set. Owned by the loop thread.
public final class Epoll {
    public let fd: FileDescriptor
    public let system: any SystemCalls
    /// `system` when it is the real kernel, for the calls nearly every input frame makes (this
    /// wait, a streamed line's send): called directly, not through the protocol's existential, so a
    /// wake-up runs through two calls fewer (docs/performance.md, "CPU per event against libinput").
    /// nil for a scripted kernel, which the protocol reaches.
    public let kernel: LinuxSystemCalls?
    /// Where each wait's readiness lands: allocated once, reused by every wait (the loop waits once
    /// per input frame, so the wait itself allocates nothing).
    @usableFromInline let ready = UnsafeMutableBufferPointer<EpollReadiness>.allocate(capacity: Epoll.capacity)
    /// The most readiness entries one wait reports.
    public static let capacity = 64

    public init(system: any SystemCalls = LinuxSystemCalls.shared) throws(SystemCallError) {
        self.system = system
        kernel = system as? LinuxSystemCalls
        fd = try system.epollCreate().get("epoll_create1")
    }
    deinit {
        system.close(fd)
        ready.deallocate()
    }

    public func add(_ target: FileDescriptor, events: EpollEvents) throws(SystemCallError) {
        try system.epollControl(fd, .add, target, events).get("epoll_ctl(ADD)", subject: "\(target)")
    }

    /// Changes what `target` is watched for. Failing here means the fd was never added: a bug.
    public func modify(_ target: FileDescriptor, events: EpollEvents) {
        if case .failure(let error) = system.epollControl(fd, .modify, target, events) {
            preconditionFailure("epoll_ctl(MOD) on \(target) failed with \(error): a bug in gestured")
        }
    }

    /// Stops watching `target` (call before closing it). ENOENT (never added) is tolerated.
    public func remove(_ target: FileDescriptor) {
        if case .failure(let error) = system.epollControl(fd, .remove, target, []), error != .noSuchEntry {
            preconditionFailure("epoll_ctl(DEL) on \(target) failed with \(error): a bug in gestured")
        }
    }

    /// Waits for events; `timeout` in ms, -1 forever. An interrupted wait returns no events (the
    /// caller's loop re-arms its timers and waits again), so it is deliberately not retried here.
    /// The list is valid until the next wait.
    /// Inlined into the caller's loop: one call fewer per wake-up (docs/performance.md).
    @inlinable @inline(__always)
    public func wait(timeout: Int32) throws(SystemCallError) -> EpollReadyList {
        let result = if let kernel {
            kernel.epollWaitOnce(fd, timeout: timeout, into: ready)
        } else {
            system.epollWaitOnce(fd, timeout: timeout, into: ready)
        }
        switch result {
        case .success(let count): return EpollReadyList(entries: UnsafeBufferPointer(rebasing: ready[0..<count]))
        case .failure(.interrupted): return EpollReadyList(entries: UnsafeBufferPointer(rebasing: ready[0..<0]))
        case .failure(let error): throw SystemCallError("epoll_wait", errno: error)
        }
    }
}

/// What one `Epoll.wait` reported, in the epoll set's own storage: valid until the next wait.
public struct EpollReadyList: RandomAccessCollection {
    @usableFromInline let entries: UnsafeBufferPointer<EpollReadiness>
    @usableFromInline init(entries: UnsafeBufferPointer<EpollReadiness>) { self.entries = entries }
    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    public subscript(position: Int) -> EpollReadiness { entries[position] }
}
