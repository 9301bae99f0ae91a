#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GesturePosix
import Logging
import GestureProtocol

/// Who may connect and how many at once (docs/protocol.md, "Connecting").
struct ClientAdmission: Sendable {
    /// Slots any allowed client may take (file descriptors are finite; RLIMIT_NOFILE is often 1024).
    static let sharedSlots = 512
    /// Further slots only the owner (root or the daemon's own uid) may take once the shared ones
    /// are full, so `gesturectl status` and `reload` still get in when other clients hog the socket.
    static let ownerSlots = 8

    /// `socket.allowed-uids`; empty: everyone the socket file lets in.
    var allowedUIDs: [UInt32]
    let daemonUID: UInt32

    enum Decision: Equatable {
        case admit
        /// Refused with this message.
        case refuse(String)
    }

    func isOwner(uid: UInt32) -> Bool { uid == 0 || uid == daemonUID }

    func isAllowed(uid: UInt32) -> Bool {
        allowedUIDs.isEmpty || isOwner(uid: uid) || allowedUIDs.contains(uid)
    }

    /// Whether a peer with `uid` may connect while `connected` clients are.
    func decide(uid: UInt32, connected: Int) -> Decision {
        guard isAllowed(uid: uid) else { return .refuse("permission denied: uid \(uid) may not use this socket") }
        if connected < ClientAdmission.sharedSlots { return .admit }
        if isOwner(uid: uid) && connected < ClientAdmission.sharedSlots + ClientAdmission.ownerSlots { return .admit }
        return .refuse("too many clients (\(connected)); try again later")
    }
}

extension ClientHub {
    /// The fd systemd passed (LISTEN_FDS, socket activation), if any.
    static func activatedSocket() -> FileDescriptor? { UnixListener.activatedSocket() }

    /// Creates, binds and listens on the Unix socket at `path` with the configured mode, owner and
    /// group. A stale socket file is replaced; a live one (another daemon) is an error.
    static func listen(path: String, settings: SocketSettings) throws(SystemCallError) -> FileDescriptor {
        try UnixListener.listen(path: path, mode: settings.mode, owner: settings.owner, group: settings.group)
    }

    func isAllowed(uid: UInt32) -> Bool { admission.isAllowed(uid: uid) }

    /// Accepts every pending connection; greets admitted peers, refuses others with one error line.
    func acceptAll() {
        while true {
            switch system.accept(listenFD) {
            case .success(let fd):
                admit(fd)
            case .failure(.wouldBlock):
                return
            case .failure(let error) where error == .connectionAborted:
                continue  // the peer left before we took it
            case .failure(let error) where error == .tooManyOpenFiles || error == .tooManyOpenFilesInSystem:
                // The connection stays queued and the listening socket readable: without taking it
                // the loop would spin. Give up the spare descriptor to take it and say why.
                guard refuseWithSpareDescriptor(error) else { return }
            case .failure(let error):
                logger.warning("accept failed", metadata: ["error": "\(SystemCallError("accept4", errno: error))"])
                return
            }
        }
    }

    private func admit(_ fd: FileDescriptor) {
        let peer = (try? system.peerCredentials(fd).get()) ?? .unknown
        switch admission.decide(uid: peer.uid, connected: clients.count) {
        case .refuse(let message):
            logger.warning("client refused", metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "reason": "\(message)"])
            refuse(fd, ProtocolLine.error(message))
        case .admit:
            do {
                try epoll.add(fd, events: .readable)
            } catch {
                logger.warning("cannot watch client", metadata: ["error": "\(error)"])
                system.close(fd)
                return
            }
            let client = ClientConnection(info: ClientInfo(id: nextClientID, pid: peer.pid, uid: peer.uid), fd: fd,
                                          lineLimit: ClientHub.maximumLineLength)
            nextClientID += 1
            clients[fd] = client
            logger.info("client connected", metadata: ["client": "\(client.id)", "pid": "\(peer.pid)", "uid": "\(peer.uid)"])
            client.output.append(DaemonVersion.helloLine)
            service(client)
        }
    }

    /// Sends one line without waiting and closes.
    private func refuse(_ fd: FileDescriptor, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { system.send(fd, $0) }
        system.close(fd)
    }

    /// Out of descriptors: closes the spare, accepts and refuses one connection with it, takes the
    /// spare back. False when there is no spare (the next wake-up tries again).
    private func refuseWithSpareDescriptor(_ error: Errno) -> Bool {
        guard let spare = spareDescriptor else {
            logger.error("accept failed and no spare descriptor", metadata: ["error": "\(error)"])
            return false
        }
        system.close(spare)
        spareDescriptor = nil
        defer { spareDescriptor = try? system.duplicate(listenFD).get() }
        guard case .success(let fd) = system.accept(listenFD) else { return false }
        logger.error("out of file descriptors; connection refused", metadata: ["error": "\(error)"])
        refuse(fd, ProtocolLine.error("the daemon is out of file descriptors; try again later"))
        return true
    }
}
