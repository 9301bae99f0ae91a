#if canImport(Glibc)
import Glibc
#endif
import CGestureSys

/// The peer of a Unix socket (SO_PEERCRED).
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
    /// Unknown peer (the kernel would not say): uid `UInt32.max`, which no allow-list contains.
    public static let unknown = PeerCredentials(pid: -1, uid: .max, gid: .max)
}

/// Which direction `shutdown(2)` closes.
public enum ShutdownDirection: Sendable {
    case reading, writing, both
    var rawValue: Int32 {
        switch self {
        case .reading: Int32(SHUT_RD)
        case .writing: Int32(SHUT_WR)
        case .both: Int32(SHUT_RDWR)
        }
    }
}

/// The two ends of a client's stream pipe (`SystemCalls.makeStreamPipe`): `read` blocking (handed
/// to the client, then closed in the daemon), `write` non-blocking (the daemon's).
public typealias StreamPipeEnds = (read: FileDescriptor, write: FileDescriptor)

/// One readiness report of `epoll_wait`.
public typealias EpollReadiness = (fd: FileDescriptor, events: EpollEvents)

/// The kernel calls the socket and event-loop code makes at run time: the seam where tests put a
/// scripted kernel (`EAGAIN`, `EINTR`, a peer vanishing mid-write...) under the real code, the way
/// apple/swift-system mocks its syscalls. Each requirement makes exactly ONE attempt and reports
/// the errno; retrying after EINTR happens above the seam (`retryingOnInterrupt`), so a scripted
/// EINTR exercises the real retry. Setup-time calls (bind, chmod...) are not here: their failures
/// are reported at start and tested with real sockets.
public protocol SystemCalls {
    /// accept4(SOCK_NONBLOCK | SOCK_CLOEXEC).
    func acceptOnce(_ listener: FileDescriptor) -> Result<FileDescriptor, Errno>
    func peerCredentials(_ socket: FileDescriptor) -> Result<PeerCredentials, Errno>
    /// recv(MSG_DONTWAIT): 0 is the end of the peer's data.
    func receiveOnce(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    /// send(MSG_NOSIGNAL | MSG_DONTWAIT): a vanished peer is EPIPE, never SIGPIPE.
    func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno>
    /// sendmsg(MSG_NOSIGNAL | MSG_DONTWAIT) with `descriptor` passed along (SCM_RIGHTS): the peer
    /// receives a copy of it with the first of these bytes.
    func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer, passing descriptor: FileDescriptor) -> Result<Int, Errno>
    /// A pipe for one client's streamed lines: pipe2(O_CLOEXEC), the write end non-blocking.
    func makeStreamPipe() -> Result<StreamPipeEnds, Errno>
    /// write(2) on a non-blocking pipe; a reader that left is EPIPE (the process ignores SIGPIPE).
    func writeOnce(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno>
    func shutdown(_ socket: FileDescriptor, _ direction: ShutdownDirection)
    /// close(2); never retried (see `retryingOnInterrupt`).
    func close(_ fd: FileDescriptor)
    /// A close-on-exec duplicate (F_DUPFD_CLOEXEC): a spare descriptor kept for running out.
    func duplicate(_ fd: FileDescriptor) -> Result<FileDescriptor, Errno>
    func epollCreate() -> Result<FileDescriptor, Errno>
    func epollControl(_ epoll: FileDescriptor, _ operation: EpollOperation, _ fd: FileDescriptor,
                      _ events: EpollEvents) -> Result<Void, Errno>
    /// Fills the start of `ready` with what is ready within `timeout` ms (-1: forever); how many.
    func epollWaitOnce(_ epoll: FileDescriptor, timeout: Int32, into ready: UnsafeMutableBufferPointer<EpollReadiness>) -> Result<Int, Errno>
}

// Inlinable, so a call on the concrete kernel (`Epoll.kernel`) is a direct call, not one through
// the protocol's witness table.
extension SystemCalls {
    /// accept, retried after EINTR.
    @inlinable
    public func accept(_ listener: FileDescriptor) -> Result<FileDescriptor, Errno> {
        retryingOnInterrupt { acceptOnce(listener) }
    }
    /// recv, retried after EINTR; `.wouldBlock` when nothing is pending.
    @inlinable
    public func receive(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { receiveOnce(socket, into: buffer) }
    }
    /// send, retried after EINTR; `.wouldBlock` when the socket buffer is full.
    @inlinable
    public func send(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { sendOnce(socket, bytes) }
    }
    /// send with a descriptor passed along, retried after EINTR.
    @inlinable
    public func send(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer, passing descriptor: FileDescriptor) -> Result<Int, Errno> {
        retryingOnInterrupt { sendOnce(socket, bytes, passing: descriptor) }
    }
    /// write, retried after EINTR; `.wouldBlock` when the pipe is full.
    @inlinable @inline(__always)
    public func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { writeOnce(fd, bytes) }
    }
}

/// The real kernel. Stateless; each call stops the process on an errno only a bug can cause.
public struct LinuxSystemCalls: SystemCalls, Sendable {
    public static let shared = LinuxSystemCalls()
    public init() {}

    @inlinable @inline(__always)
    func checked<T>(_ result: Result<T, Errno>, _ call: StaticString, _ fd: FileDescriptor,
                            alsoBug: Errno? = nil) -> Result<T, Errno> {
        if case .failure(let error) = result { preconditionNotABug(error, call, fd: fd.rawValue, alsoBug: alsoBug) }
        return result
    }

    public func acceptOnce(_ listener: FileDescriptor) -> Result<FileDescriptor, Errno> {
        checked(Errno.result(gestured_accept_nonblocking(listener.rawValue)), "accept4", listener,
                alsoBug: .invalidArgument)
            .map(FileDescriptor.init(rawValue:))
    }

    public func peerCredentials(_ socket: FileDescriptor) -> Result<PeerCredentials, Errno> {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (its declaration needs _GNU_SOURCE).
        var cred: (Int32, UInt32, UInt32) = (-1, .max, .max)
        var length = socklen_t(MemoryLayout.size(ofValue: cred))
        let rc = getsockopt(socket.rawValue, SOL_SOCKET, SO_PEERCRED, &cred, &length)
        return checked(Errno.result(rc), "getsockopt(SO_PEERCRED)", socket)
            .map { _ in PeerCredentials(pid: cred.0, uid: cred.1, gid: cred.2) }
    }

    public func receiveOnce(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        checked(Errno.result(recv(socket.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))), "recv", socket)
    }

    public func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        return checked(Errno.result(Glibc.send(socket.rawValue, bytes.baseAddress, bytes.count, flags)), "send", socket)
    }

    public func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer, passing descriptor: FileDescriptor) -> Result<Int, Errno> {
        checked(Errno.result(gestured_send_passing(socket.rawValue, bytes.baseAddress, bytes.count, descriptor.rawValue)),
                "sendmsg(SCM_RIGHTS)", socket)
    }

    public func makeStreamPipe() -> Result<StreamPipeEnds, Errno> {
        var read: Int32 = -1, write: Int32 = -1
        return checked(Errno.result(gestured_stream_pipe(&read, &write)), "pipe2", FileDescriptor(rawValue: -1))
            .map { _ in (read: FileDescriptor(rawValue: read), write: FileDescriptor(rawValue: write)) }
    }

    // Inlinable, as `epollWaitOnce`: the streamed line's write and the loop's wait are direct calls
    // into libc from the daemon, not a call to a thunk that calls this (a call site less a wake-up).
    @inlinable
    public func writeOnce(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        checked(Errno.result(Glibc.write(fd.rawValue, bytes.baseAddress, bytes.count)), "write", fd)
    }

    public func shutdown(_ socket: FileDescriptor, _ direction: ShutdownDirection) {
        if case .failure(let error) = Errno.result(Glibc.shutdown(socket.rawValue, direction.rawValue)) {
            // ENOTCONN: the peer already left; nothing to shut.
            preconditionNotABug(error, "shutdown", fd: socket.rawValue)
        }
    }

    public func close(_ fd: FileDescriptor) {
        if case .failure(let error) = Errno.result(Glibc.close(fd.rawValue)) {
            // EINTR / EIO: the descriptor is released anyway on Linux.
            preconditionNotABug(error, "close", fd: fd.rawValue)
        }
    }

    public func duplicate(_ fd: FileDescriptor) -> Result<FileDescriptor, Errno> {
        checked(Errno.result(fcntl(fd.rawValue, F_DUPFD_CLOEXEC, Int32(0))), "fcntl(F_DUPFD_CLOEXEC)", fd)
            .map(FileDescriptor.init(rawValue:))
    }

    public func epollCreate() -> Result<FileDescriptor, Errno> {
        Errno.result(epoll_create1(Int32(EPOLL_CLOEXEC))).map(FileDescriptor.init(rawValue:))
    }

    public func epollControl(_ epoll: FileDescriptor, _ operation: EpollOperation, _ fd: FileDescriptor,
                             _ events: EpollEvents) -> Result<Void, Errno> {
        var event = epoll_event(events: events.rawValue, data: epoll_data_t(fd: fd.rawValue))
        // EINVAL: epoll on itself or a bad operation; only our mistake.
        return checked(Errno.result(epoll_ctl(epoll.rawValue, operation.rawValue, fd.rawValue, &event)),
                       "epoll_ctl", fd, alsoBug: .invalidArgument).map { _ in () }
    }

    @inlinable @inline(__always)
    public func epollWaitOnce(_ epoll: FileDescriptor, timeout: Int32, into ready: UnsafeMutableBufferPointer<EpollReadiness>) -> Result<Int, Errno> {
        withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: ready.count) { buffer in
            let result = checked(Errno.result(epoll_wait(epoll.rawValue, buffer.baseAddress, Int32(buffer.count), timeout)),
                                 "epoll_wait", epoll, alsoBug: .invalidArgument)
            guard case .success(let count) = result else { return result.map { _ in 0 } }
            for i in 0..<Int(count) {
                ready[i] = (FileDescriptor(rawValue: buffer[i].data.fd), EpollEvents(rawValue: buffer[i].events))
            }
            return .success(Int(count))
        }
    }
}
