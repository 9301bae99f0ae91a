#if canImport(Glibc)
import Glibc
#endif
import CGestureSys
import GestureCore
import GestureConfig
import GestureDevices
import Logging

/// One connected socket client. Owned by the loop thread.
final class ClientConnection {
    let id: Int
    let fd: Int32
    let pid: Int32
    let uid: UInt32
    var readBuffer: [UInt8] = []
    /// Lines waiting to be written, each ending in a newline; `head` is the next one,
    /// `offset` how much of it was already written.
    var queue: [[UInt8]] = []
    var head = 0
    var offset = 0
    /// Lines dropped since the queue was last empty.
    var dropped = 0
    var subscribed = false
    var filter = SubscriptionFilter()
    var explain = false
    var wantsWrite = false
    var readClosed = false
    /// Inside processLines (replies flush without re-entering it).
    var processing = false
    /// The epoll events currently registered.
    var interest = EPOLLIN.rawValue

    init(id: Int, fd: Int32, pid: Int32, uid: UInt32) {
        self.id = id
        self.fd = fd
        self.pid = pid
        self.uid = uid
    }

    var queuedCount: Int { queue.count - head }
    var name: String { "client \(id) (pid \(pid), uid \(uid))" }
}

/// The socket side of the protocol (docs/protocol.md): the listening socket, every client, their
/// bounded output queues, and request parsing. Requests other than subscribe / unsubscribe /
/// explain go to `handler`. Owned by the loop thread; every fd is non-blocking.
final class ClientHub {
    let listenFD: Int32
    /// Unlinked on close; nil when the socket came from systemd (socket activation).
    let socketPath: String?
    private(set) var clients: [Int32: ClientConnection] = [:]
    var queueLimit: Int
    var allowedUIDs: [UInt32]
    private let epoll: Epoll
    private let logger: Logger
    private var nextID = 1
    /// Answers status, devices, hit-test, reload: returns a response or error line.
    var handler: (ClientRequest, ClientConnection) -> String = { request, _ in
        ProtocolLine.error("unsupported request '\(request.request)'", request: request.request)
    }
    /// Called when the set of clients wanting explain lines goes from empty to not, or back.
    var onExplainChanged: (Bool) -> Void = { _ in }
    /// The kind of a configured recognizer id (explain lines carry only the id).
    var kindOf: (String) -> RecognizerKind? = { _ in nil }
    /// Called after every successful subscribe.
    var onSubscribe: () -> Void = {}
    /// Called after every subscribe or unsubscribe (touch subscribers are responders).
    var onSubscriptionChanged: () -> Void = {}
    /// Called when a client is gone (its attached regions go with it).
    var onDisconnect: (ClientConnection) -> Void = { _ in }
    private var explainWanted = false

    static let maximumLineLength = 65_536
    /// Connections beyond this are refused (fds are a finite resource; RLIMIT_NOFILE is often 1024).
    static let maximumClients = 512

    init(listenFD: Int32, socketPath: String?, settings: SocketSettings, epoll: Epoll, logger: Logger) throws(SystemCallError) {
        self.listenFD = listenFD
        self.socketPath = socketPath
        self.queueLimit = max(1, settings.clientQueueLimit)
        self.allowedUIDs = settings.allowedUIDs
        self.epoll = epoll
        self.logger = logger
        try epoll.add(listenFD, events: Epoll.readable)
    }

    /// The fd systemd passed (LISTEN_FDS, socket activation), if any.
    static func activatedSocket() -> Int32? {
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
              let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Creates, binds and listens on a Unix socket at `path` with the configured mode, owner and
    /// group. A stale socket file is replaced; a live one (another daemon) is an error.
    static func listen(path: String, settings: SocketSettings) throws(SystemCallError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError.current("socket", subject: path) }
        var bound = false
        do throws(SystemCallError) {
            var st = stat()
            if lstat(path, &st) == 0 {
                guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw SystemCallError("bind", code: EEXIST, subject: path) }
                let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                let live = withUnixAddress(path) { connect(probe, $0, $1) } == 0
                close(probe)
                if live { throw SystemCallError("bind", code: EADDRINUSE, subject: "\(path) (another gestured is listening)") }
                unlink(path)
            }
            // A missing parent directory (no RuntimeDirectory=, a manual run) is created, one level.
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty && access(parent, F_OK) != 0 && mkdir(parent, 0o755) != 0 {
                throw SystemCallError.current("mkdir", subject: parent)
            }
            let oldMask = umask(0o177)
            let rc = withUnixAddress(path) { bind(fd, $0, $1) }
            umask(oldMask)
            guard let rc else { throw SystemCallError("bind", code: ENAMETOOLONG, subject: path) }
            if rc != 0 { throw SystemCallError.current("bind", subject: path) }
            bound = true
            if chmod(path, mode_t(settings.mode)) != 0 { throw SystemCallError.current("chmod", subject: path) }
            if settings.owner != nil || settings.group != nil {
                var uid = uid_t.max
                var gid = gid_t.max
                if let owner = settings.owner {
                    if let id = UInt32(owner) { uid = id } else if let pw = getpwnam(owner) { uid = pw.pointee.pw_uid } else {
                        throw SystemCallError("getpwnam", code: ENOENT, subject: "socket owner '\(owner)'")
                    }
                }
                if let group = settings.group {
                    if let id = UInt32(group) { gid = id } else if let gr = getgrnam(group) { gid = gr.pointee.gr_gid } else {
                        throw SystemCallError("getgrnam", code: ENOENT, subject: "socket group '\(group)'")
                    }
                }
                if chown(path, uid, gid) != 0 { throw SystemCallError.current("chown", subject: path) }
            }
            if Glibc.listen(fd, 128) != 0 { throw SystemCallError.current("listen", subject: path) }
        } catch {
            close(fd)
            if bound { unlink(path) }
            throw error
        }
        return fd
    }

    // MARK: connections

    /// Accepts every pending connection; greets allowed peers, refuses others with an error line.
    func acceptAll() {
        while true {
            // accept4 is not visible to Swift; this thread is the only one spawning processes, so
            // setting FD_CLOEXEC right after accept leaves no window for a leak.
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    logger.warning("accept4 failed", metadata: ["error": "\(SystemCallError.current("accept4"))"])
                }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // SO_PEERCRED: struct ucred { pid_t pid; uid_t uid; gid_t gid; }
            var cred = [Int32](repeating: -1, count: 3)
            var length = socklen_t(12)
            let rc = cred.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
            let pid = cred[0]
            let uid = rc == 0 ? UInt32(bitPattern: cred[1]) : UInt32.max
            let client = ClientConnection(id: nextID, fd: fd, pid: pid, uid: uid)
            nextID += 1
            if clients.count >= ClientHub.maximumClients {
                logger.warning("too many clients; refused", metadata: ["pid": "\(pid)", "uid": "\(uid)"])
                refuse(fd, ProtocolLine.error("too many clients (\(ClientHub.maximumClients)); try again later"))
                continue
            }
            if !isAllowed(uid: uid) {
                logger.warning("refused client", metadata: ["client": "\(client.id)", "pid": "\(pid)", "uid": "\(uid)"])
                refuse(fd, ProtocolLine.error("permission denied: uid \(uid) may not use this socket"))
                continue
            }
            do {
                try epoll.add(fd, events: EPOLLIN.rawValue)
            } catch {
                logger.warning("cannot watch client", metadata: ["error": "\(error)"])
                close(fd)
                continue
            }
            clients[fd] = client
            logger.info("client connected", metadata: ["client": "\(client.id)", "pid": "\(pid)", "uid": "\(uid)"])
            enqueue(DaemonVersion.helloLine, to: client, force: true)
        }
    }

    /// Sends one line without waiting and closes.
    private func refuse(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        close(fd)
    }

    func isAllowed(uid: UInt32) -> Bool {
        allowedUIDs.isEmpty || uid == 0 || uid == getuid() || allowedUIDs.contains(uid)
    }

    /// Handles readiness of a client fd.
    func handle(fd: Int32, events: UInt32) {
        guard let client = clients[fd] else { return }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            disconnect(client, reason: "hung up")
            return
        }
        if events & EPOLLIN.rawValue != 0 { readRequests(client) }
        if clients[fd] != nil && events & EPOLLOUT.rawValue != 0 { flush(client) }
    }

    private func readRequests(_ client: ClientConnection) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                disconnect(client, reason: "read error: \(SystemCallError.current("recv"))")
                return
            }
            if n == 0 {
                // Peer finished sending: answer what it sent, then close once everything is written.
                client.readClosed = true
                break
            }
            client.readBuffer.append(contentsOf: chunk[0..<n])
            if !processLines(client) { return }
            if client.queuedCount >= queueLimit {
                updateInterest(client)
                return
            }
            if n < chunk.count { break }
        }
        if client.readClosed {
            if client.queuedCount == 0 {
                disconnect(client, reason: "closed")
            } else {
                updateInterest(client)
            }
        }
    }

    /// Handles complete lines; false when the client was disconnected.
    private func processLines(_ client: ClientConnection) -> Bool {
        client.processing = true
        defer { client.processing = false }
        var start = 0
        let buffer = client.readBuffer
        // Back-pressure: a client that does not read its responses is not read from either.
        while client.queuedCount < queueLimit, let newline = buffer[start...].firstIndex(of: 10) {
            let line = String(decoding: buffer[start..<newline], as: UTF8.self)
            start = newline + 1
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty { continue }
            let reply = respond(to: trimmed, from: client)
            enqueue(reply, to: client, force: true)
            if clients[client.fd] == nil { return false }
        }
        client.readBuffer.removeFirst(start)
        if client.readBuffer.count > ClientHub.maximumLineLength {
            enqueue(ProtocolLine.error("request line longer than \(ClientHub.maximumLineLength) bytes; closing"),
                    to: client, force: true)
            client.readBuffer = []
            client.readClosed = true
            _ = shutdown(client.fd, Int32(SHUT_RD))
        }
        return true
    }

    private func respond(to line: String, from client: ClientConnection) -> String {
        switch ClientRequest.parse(line) {
        case .success(let request): return ProtocolLine.tagged(answer(request, from: client), id: request.id)
        case .failure(let error):
            logger.debug("bad request", metadata: ["client": "\(client.id)", "error": "\(error.message)"])
            return ProtocolLine.error(error.message)
        }
    }

    private func answer(_ request: ClientRequest, from client: ClientConnection) -> String {
        switch request.request {
        case "subscribe":
            do {
                client.filter = try SubscriptionFilter(request)
                client.subscribed = true
                defer {
                    onSubscribe()
                    onSubscriptionChanged()
                }
                return ProtocolLine.response("subscribe")
            } catch {
                return ProtocolLine.error(error.message, request: "subscribe")
            }
        case "unsubscribe":
            client.subscribed = false
            defer { onSubscriptionChanged() }
            return ProtocolLine.response("unsubscribe")
        case "explain":
            client.explain = request.on ?? true
            updateExplain()
            return ProtocolLine.response("explain", [("on", client.explain ? "true" : "false")])
        case "status", "devices", "hit-test", "reload", "attach", "update", "detach", "set-surface":
            return handler(request, client)
        default:
            return ProtocolLine.error(
                "unknown request '\(request.request)' (expected subscribe, unsubscribe, status, devices, hit-test, reload, explain, attach, update, detach or set-surface)",
                request: request.request)
        }
    }

    private func updateExplain() {
        let wanted = clients.values.contains { $0.explain }
        if wanted != explainWanted {
            explainWanted = wanted
            onExplainChanged(wanted)
        }
    }

    func disconnect(_ client: ClientConnection, reason: String) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        epoll.remove(client.fd)
        close(client.fd)
        logger.info("client disconnected", metadata: ["client": "\(client.id)", "reason": "\(reason)"])
        if client.explain { updateExplain() }
        onDisconnect(client)
    }

    // MARK: output

    /// Queues a line for a client. Over the queue limit the line is dropped and counted (responses
    /// to the client's own requests are `force`d in). Writes at once when the socket takes it.
    func enqueue(_ line: String, to client: ClientConnection, force: Bool = false) {
        if !force && client.queuedCount >= queueLimit {
            client.dropped += 1
            return
        }
        var bytes = Array(line.utf8)
        bytes.append(10)
        client.queue.append(bytes)
        if !client.wantsWrite { flush(client) }
    }

    /// Sends one engine output to every subscriber whose filter matches; encodes it once.
    func publish(_ output: EngineOutput) {
        if publishOwned(output) { return }
        var line: String?
        for client in clients.values {
            let wanted: Bool
            if case .explain(let e) = output {
                wanted = client.explain && client.filter.matchesExplain(e, kind: kindOf(e.gesture))
            } else {
                wanted = client.subscribed && client.filter.matches(output)
            }
            guard wanted else { continue }
            if line == nil { line = output.jsonLine }
            enqueue(line!, to: client)
        }
    }

    /// The largest queue of any client (replay back-pressure).
    var largestQueue: Int { clients.values.map(\.queuedCount).max() ?? 0 }
    var hasSubscriber: Bool { clients.values.contains { $0.subscribed } }

    /// Writes as much as the socket takes; never blocks.
    func flush(_ client: ClientConnection) {
        while true {
            while client.head < client.queue.count {
                let line = client.queue[client.head]
                let n = line.withUnsafeBytes {
                    send(client.fd, $0.baseAddress! + client.offset, $0.count - client.offset,
                         Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        updateInterest(client, writable: true)
                        return
                    }
                    disconnect(client, reason: "write error: \(SystemCallError.current("send"))")
                    return
                }
                client.offset += n
                if client.offset == line.count {
                    client.head += 1
                    client.offset = 0
                }
            }
            client.queue.removeAll(keepingCapacity: client.queue.capacity < 4096)
            client.head = 0
            // Caught up: tell the client how much it missed.
            if client.dropped > 0 {
                let count = client.dropped
                client.dropped = 0
                logger.notice("client was too slow; lines dropped", metadata: ["client": "\(client.id)", "count": "\(count)"])
                client.queue.append(Array((ProtocolLine.dropped(count) + "\n").utf8))
                continue
            }
            break
        }
        if client.processing {
            // Called from processLines' own replies; it carries on with the remaining lines.
            updateInterest(client, writable: false)
            return
        }
        if client.readBuffer.contains(10) {
            // Requests held back while the queue was full.
            client.wantsWrite = false
            guard processLines(client) else { return }
            if client.queuedCount > 0 { return }
        }
        if client.readClosed {
            disconnect(client, reason: "closed")
            return
        }
        updateInterest(client, writable: false)
    }

    private func updateInterest(_ client: ClientConnection, writable: Bool? = nil) {
        let wantsWrite = writable ?? (client.queuedCount > 0)
        let wantsRead = !client.readClosed && client.queuedCount < queueLimit
        let events = (wantsRead ? EPOLLIN.rawValue : 0) | (wantsWrite ? EPOLLOUT.rawValue : 0)
        if events != client.interest {
            client.interest = events
            epoll.modify(client.fd, events: events)
        }
        client.wantsWrite = wantsWrite
    }

    /// Closes every client and the listening socket; removes the socket file.
    func closeAll() {
        for client in Array(clients.values) { disconnect(client, reason: "daemon stopping") }
        epoll.remove(listenFD)
        close(listenFD)
        if let socketPath { unlink(socketPath) }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
