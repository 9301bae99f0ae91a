import GestureConfig
import GesturePosix
import GestureProtocol
@testable import GestureDaemon

/// A kernel made of data, put under the real client hub through the `SystemCalls` seam: a socket
/// is two byte queues, epoll is level-triggered readiness computed from them, and any call can be
/// made to fail (EINTR first, EAGAIN when a socket is full, EPIPE / ECONNRESET when a peer vanishes,
/// EMFILE when descriptors run out). Everything is deterministic: no thread, no clock.
final class ScriptedKernel: SystemCalls {
    /// One connection, seen from both ends.
    final class Socket {
        let credentials: PeerCredentials
        /// Bytes the peer sent that the daemon has not read.
        var incoming: [UInt8] = []
        var incomingRead = 0
        /// The peer shut its sending side (the daemon then reads 0).
        var peerFinishedSending = false
        /// The peer closed the connection: reads reset, writes break, epoll reports a hang-up.
        var peerVanished = false
        /// Bytes the daemon wrote that the peer has not taken.
        var outgoing: [UInt8] = []
        /// Bytes the socket still takes from the daemon before EAGAIN.
        var room = Int.max
        /// The most one receive returns (how reads split the peer's bytes).
        var readSize = Int.max
        var closedByDaemon = false
        /// Descriptors passed along with the daemon's bytes (SCM_RIGHTS), oldest first, with the
        /// offset in `outgoing` of the byte each came with (before `take` removed bytes).
        var passed: [(fd: FileDescriptor, at: Int)] = []
        init(credentials: PeerCredentials) { self.credentials = credentials }
        var unread: Int { incoming.count - incomingRead }
    }

    /// A stream pipe (`makeStreamPipe`): what the daemon wrote into it, and its reader.
    final class Pipe {
        let read: FileDescriptor
        let write: FileDescriptor
        /// Bytes written that the reader has not taken.
        var written: [UInt8] = []
        /// Bytes the pipe still takes before EAGAIN.
        var room = Int.max
        /// The reader closed its end: writes fail with EPIPE, epoll reports an error.
        var readerClosed = false
        var writerClosed = false
        init(read: FileDescriptor, write: FileDescriptor) {
            self.read = read
            self.write = write
        }
        /// Complete lines written, taken out of the pipe.
        func take() -> [String] {
            guard let last = written.lastIndex(of: 10) else { return [] }
            let lines = written[...last].split(separator: 10, omittingEmptySubsequences: false).dropLast()
            written.removeFirst(last + 1)
            return lines.map { String(decoding: $0, as: UTF8.self) }
        }
        func allow(_ bytes: Int) { room = bytes }
    }
    /// Every stream pipe made, oldest first.
    private(set) var pipes: [Pipe] = []
    /// Pipes made fail with this (EMFILE, say).
    var pipeFailure: Errno?

    /// The client end of a socket, for tests.
    struct Peer {
        let kernel: ScriptedKernel
        let socket: Socket
        /// The daemon's fd for it (nil until accepted).
        var fd: FileDescriptor? { kernel.sockets.first { $0.value === socket }?.key }

        func send(_ text: String) { socket.incoming.append(contentsOf: text.utf8) }
        func send(bytes: [UInt8]) { socket.incoming.append(contentsOf: bytes) }
        func finishSending() { socket.peerFinishedSending = true }
        func vanish() { socket.peerVanished = true }
        /// Lets the daemon write `bytes` more.
        func allow(_ bytes: Int) { socket.room = bytes }
        func readsSplit(every bytes: Int) { socket.readSize = bytes }
        /// Complete lines the daemon wrote, taken out of the socket.
        func take() -> [String] {
            guard let last = socket.outgoing.lastIndex(of: 10) else { return [] }
            let lines = socket.outgoing[...last].split(separator: 10, omittingEmptySubsequences: false).dropLast()
            socket.outgoing.removeFirst(last + 1)
            return lines.map { String(decoding: $0, as: UTF8.self) }
        }
        var isClosedByDaemon: Bool { socket.closedByDaemon }
        /// The stream pipe whose read end the daemon passed to this client last.
        var streamPipe: Pipe? {
            guard let fd = socket.passed.last?.fd else { return nil }
            return kernel.pipes.first { $0.read == fd }
        }
    }

    let listener = FileDescriptor(rawValue: 3)
    private(set) var sockets: [FileDescriptor: Socket] = [:]
    private var pending: [Socket] = []
    private(set) var interest: [FileDescriptor: EpollEvents] = [:]
    /// Every descriptor open in the "process" (listener, epoll, clients, spares).
    private(set) var open: Set<FileDescriptor> = []
    private var nextFD: Int32 = 10
    /// Open descriptors beyond which accept and dup fail with EMFILE.
    var descriptorLimit = Int.max
    /// Calls made, by name (an interrupted attempt counts too).
    private(set) var calls: [String: Int] = [:]
    /// EINTRs still to return, by call name, before the call does its work.
    private var interruptions: [String: Int] = [:]

    init() { open.insert(listener) }

    func connect(uid: UInt32, pid: Int32 = 4000) -> Peer {
        let socket = Socket(credentials: PeerCredentials(pid: pid, uid: uid, gid: uid))
        pending.append(socket)
        return Peer(kernel: self, socket: socket)
    }

    /// The next `times` calls of `call` ("accept4", "recv", "send", "epoll_wait") fail with EINTR.
    func interrupt(_ call: String, times: Int) { interruptions[call, default: 0] += times }

    private func count(_ call: String) -> Errno? {
        calls[call, default: 0] += 1
        guard let left = interruptions[call], left > 0 else { return nil }
        interruptions[call] = left - 1
        return .interrupted
    }

    private func newDescriptor() -> FileDescriptor? {
        guard open.count < descriptorLimit else { return nil }
        let fd = FileDescriptor(rawValue: nextFD)
        nextFD += 1
        open.insert(fd)
        return fd
    }

    // MARK: SystemCalls

    func acceptOnce(_ listener: FileDescriptor) -> Result<FileDescriptor, Errno> {
        if let error = count("accept4") { return .failure(error) }
        guard !pending.isEmpty else { return .failure(.wouldBlock) }
        guard let fd = newDescriptor() else { return .failure(.tooManyOpenFiles) }
        sockets[fd] = pending.removeFirst()
        return .success(fd)
    }

    func peerCredentials(_ socket: FileDescriptor) -> Result<PeerCredentials, Errno> {
        sockets[socket].map { .success($0.credentials) } ?? .failure(.badFileDescriptor)
    }

    func receiveOnce(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        if let error = count("recv") { return .failure(error) }
        guard let s = sockets[socket] else { return .failure(.badFileDescriptor) }
        // As with AF_UNIX: what the peer sent is still read after it left; then the reset.
        if s.unread == 0 {
            if s.peerVanished { return .failure(.connectionReset) }
            return s.peerFinishedSending ? .success(0) : .failure(.wouldBlock)
        }
        let n = min(buffer.count, s.unread, s.readSize)
        for i in 0..<n { buffer[i] = s.incoming[s.incomingRead + i] }
        s.incomingRead += n
        if s.incomingRead == s.incoming.count {
            s.incoming.removeAll()
            s.incomingRead = 0
        }
        return .success(n)
    }

    func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        if let error = count("send") { return .failure(error) }
        guard let s = sockets[socket] else { return .failure(.badFileDescriptor) }
        if s.peerVanished { return .failure(.brokenPipe) }
        guard s.room > 0 else { return .failure(.wouldBlock) }
        let n = min(s.room, bytes.count)
        s.outgoing.append(contentsOf: bytes[..<n])
        if s.room != Int.max { s.room -= n }
        return .success(n)
    }

    func sendOnce(_ socket: FileDescriptor, _ bytes: UnsafeRawBufferPointer, passing descriptor: FileDescriptor) -> Result<Int, Errno> {
        precondition(open.contains(descriptor), "passed \(descriptor), which is not open")
        let result = sendOnce(socket, bytes)
        if case .success(let n) = result, n > 0, let s = sockets[socket] {
            s.passed.append((descriptor, s.outgoing.count - n))
        }
        return result
    }

    func makeStreamPipe() -> Result<StreamPipeEnds, Errno> {
        if let error = count("pipe2") ?? pipeFailure { return .failure(error) }
        guard let read = newDescriptor() else { return .failure(.tooManyOpenFiles) }
        guard let write = newDescriptor() else {
            open.remove(read)
            return .failure(.tooManyOpenFiles)
        }
        pipes.append(Pipe(read: read, write: write))
        return .success((read: read, write: write))
    }

    func writeOnce(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        if let error = count("write") { return .failure(error) }
        guard open.contains(fd), let pipe = pipes.first(where: { $0.write == fd }) else { return .failure(.badFileDescriptor) }
        if pipe.readerClosed { return .failure(.brokenPipe) }
        guard pipe.room > 0 else { return .failure(.wouldBlock) }
        let n = min(pipe.room, bytes.count)
        pipe.written.append(contentsOf: bytes[..<n])
        if pipe.room != Int.max { pipe.room -= n }
        return .success(n)
    }

    func shutdown(_ socket: FileDescriptor, _ direction: ShutdownDirection) {}

    func close(_ fd: FileDescriptor) {
        precondition(open.remove(fd) != nil, "closed \(fd) twice or never opened it")
        interest[fd] = nil
        if let s = sockets.removeValue(forKey: fd) { s.closedByDaemon = true }
        if let pipe = pipes.first(where: { $0.write == fd }) { pipe.writerClosed = true }
    }

    func duplicate(_ fd: FileDescriptor) -> Result<FileDescriptor, Errno> {
        newDescriptor().map { .success($0) } ?? .failure(.tooManyOpenFiles)
    }

    func epollCreate() -> Result<FileDescriptor, Errno> {
        newDescriptor().map { .success($0) } ?? .failure(.tooManyOpenFiles)
    }

    func epollControl(_ epoll: FileDescriptor, _ operation: EpollOperation, _ fd: FileDescriptor,
                      _ events: EpollEvents) -> Result<Void, Errno> {
        precondition(open.contains(fd), "epoll_ctl on \(fd), which is not open")
        switch operation {
        case .add:
            guard interest[fd] == nil else { return .failure(Errno(rawValue: 17)) }  // EEXIST
            interest[fd] = events
        case .modify:
            guard interest[fd] != nil else { return .failure(.noSuchEntry) }
            interest[fd] = events
        case .remove:
            guard interest.removeValue(forKey: fd) != nil else { return .failure(.noSuchEntry) }
        }
        return .success(())
    }

    func epollWaitOnce(_ epoll: FileDescriptor, timeout: Int32, into ready: UnsafeMutableBufferPointer<EpollReadiness>) -> Result<Int, Errno> {
        if let error = count("epoll_wait") { return .failure(error) }
        var filled = 0
        for (fd, wanted) in interest.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var events: EpollEvents = []
            if fd == listener {
                if !pending.isEmpty { events.insert(.readable) }
            } else if let s = sockets[fd] {
                if s.unread > 0 || s.peerFinishedSending || s.peerVanished { events.insert(.readable) }
                if s.room > 0 || s.peerVanished { events.insert(.writable) }
                if s.peerVanished { events.insert(.hangUp) }
            } else if let pipe = pipes.first(where: { $0.write == fd }) {
                if pipe.room > 0 { events.insert(.writable) }
                if pipe.readerClosed { events.insert(.error) }
            }
            events = events.intersection(wanted.union([.hangUp, .error]))
            if !events.isEmpty && filled < ready.count {
                ready[filled] = (fd, events)
                filled += 1
            }
        }
        return .success(filled)
    }
}

/// A hub over a scripted kernel, with the loop a daemon would run around it.
final class ScriptedHub {
    let kernel = ScriptedKernel()
    let epoll: Epoll
    let hub: ClientHub
    /// Events other than requests, in order.
    private(set) var events: [ClientHubEvent] = []
    /// How the owner answers `status`, `devices`, `hit-test` and `reload`.
    var answer: (ClientRequest) -> String = { ProtocolLine.response($0.request) }

    init(queueLimit: Int = 1024, allowedUIDs: [UInt32] = []) throws {
        epoll = try Epoll(system: kernel)
        hub = try ClientHub(listenFD: kernel.listener, socketPath: nil,
                            settings: SocketSettings(path: "/scripted", allowedUIDs: allowedUIDs, clientQueueLimit: queueLimit),
                            epoll: epoll, logger: .init(label: "test.scripted-hub"))
    }

    /// One loop iteration; false when nothing was ready.
    @discardableResult
    func turn() throws -> Bool {
        let ready = try epoll.wait(timeout: 0)
        for (fd, events) in ready {
            if fd == hub.listenFD { hub.acceptAll() } else { hub.handle(fd: fd, events: events) }
            while let event = hub.nextEvent() {
                if case .request(let pending) = event {
                    hub.reply(to: pending, with: answer(pending.request))
                } else {
                    self.events.append(event)
                }
            }
        }
        return !ready.isEmpty
    }

    /// Turns until nothing is ready; false if that takes more than `limit` turns (a spinning loop).
    func runUntilIdle(limit: Int = 100_000) throws -> Bool {
        for _ in 0..<limit where try !turn() { return true }
        return false
    }

    /// The hub's state for the client behind `peer`.
    func connection(_ peer: ScriptedKernel.Peer) -> ClientConnection? { peer.fd.flatMap { hub.clients[$0] } }
}
