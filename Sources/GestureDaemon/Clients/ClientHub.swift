#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GesturePosix
import Logging
import GestureProtocol

/// The socket side of the protocol (docs/protocol.md): the listening socket and every client.
/// Its jobs live in one file each:
/// - ClientAdmission.swift: accepting, the client slots, who may connect;
/// - ClientBackPressure.swift: reading a client's requests only while its reply queue has room,
///   writing what its socket takes (with RequestLineReader.swift and ClientOutputQueue.swift);
/// - ClientRequests.swift: answering requests, or handing them to the owner as events;
/// - ClientFanOut.swift: streamed lines to the subscribers whose filter matches;
/// - ClientStreamPipe.swift: a client's streamed lines through a pipe of its own.
///
/// The hub never calls back into its owner (the daemon or the replay server): after `acceptAll`,
/// `handle` or `reply`, the owner takes what happened with `nextEvent()` and acts on it. Owned by
/// the loop thread; every fd is non-blocking, and every kernel call goes through `system` (the
/// seam tests script).
final class ClientHub {
    let listenFD: FileDescriptor
    /// Unlinked on close; nil when the socket came from systemd (socket activation).
    let socketPath: String?
    /// Connected clients by fd (only this hub adds or removes).
    var clients: [FileDescriptor: ClientConnection] = [:]
    /// The subscribed clients, in the order they subscribed: who streamed lines go to
    /// (ClientFanOut.swift). Kept with `ClientConnection.subscribed` by `setSubscribed`.
    var subscribers: [ClientConnection] = []
    /// Clients by the write end of their stream pipe (ClientStreamPipe.swift).
    var streamOwners: [FileDescriptor: ClientConnection] = [:]
    /// Lines a client may have waiting (`socket.client-queue-limit`).
    var queueLimit: Int
    var admission: ClientAdmission
    /// Recognizer id → kind, for filtering explain lines by kind (they carry only the id).
    var recognizerKinds: [String: RecognizerKind] = [:]
    /// The config's region ids, in tree order: what a subscribe's `regions` may name.
    var regionIDs: [String] = []
    /// Whether the owner has told the config's names (`recognizerKinds`, `regionIDs`), so that a
    /// subscribe naming others is refused (the daemon and the replay server do).
    var checksFilterNames = false
    let epoll: Epoll
    let system: any SystemCalls
    let logger: Logger
    var nextClientID = 1
    /// Whether any client wants explain lines (last value told to the owner).
    var explainWanted = false
    /// A duplicate of the listening fd, given up to accept-and-refuse one connection when the
    /// process is out of file descriptors (ClientAdmission.swift).
    var spareDescriptor: FileDescriptor?
    private var isClosed = false
    /// Events not yet taken by the owner, oldest first.
    private var events: [ClientHubEvent] = []
    private var firstEvent = 0
    /// Set once a client attached regions or gestures (Daemon+Requests.swift), and kept: before
    /// that no line can involve a client's ids, and `publish` skips the namespace check
    /// (ClientHub+OwnedLines.swift) that every line would otherwise pay.
    var ownedLinesPossible = false
    /// Where a streamed line is encoded once for all its receivers (ClientFanOut.swift); reused.
    var lines = StreamedLineWriter()
    /// Where reads land before a client's line reader takes them (one loop thread, one buffer).
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ClientHub.readSize, alignment: 8)

    /// A request line's longest length in bytes, newline not counted.
    static let maximumLineLength = 65_536
    static let readSize = 16_384
    /// Reads per client per wake-up, so one busy client cannot hold the loop.
    static let readsPerWakeUp = 4

    init(listenFD: FileDescriptor, socketPath: String?, settings: SocketSettings, epoll: Epoll,
         logger: Logger) throws(SystemCallError) {
        self.listenFD = listenFD
        self.socketPath = socketPath
        self.queueLimit = max(1, settings.clientQueueLimit)
        self.admission = ClientAdmission(allowedUIDs: settings.allowedUIDs, daemonUID: getuid())
        self.epoll = epoll
        self.system = epoll.system
        self.logger = logger
        try epoll.add(listenFD, events: .readable)
        // A stream pipe whose reader left must fail its write with EPIPE, not end the process.
        signal(SIGPIPE, SIG_IGN)
        spareDescriptor = try? system.duplicate(listenFD).get()
    }

    deinit { readBuffer.deallocate() }

    var clientCount: Int { clients.count }

    /// `socket.allowed-uids` (changed on reload).
    var allowedUIDs: [UInt32] {
        get { admission.allowedUIDs }
        set { admission.allowedUIDs = newValue }
    }

    /// Handles readiness of a client fd (its socket or its stream pipe).
    func handle(fd: FileDescriptor, events: EpollEvents) {
        guard let client = clients[fd] else {
            handleStream(fd: fd, events: events)
            return
        }
        if !events.isDisjoint(with: [.hangUp, .error]) && !events.contains(.readable) {
            disconnect(client, reason: "hung up")
            return
        }
        service(client)
    }

    // MARK: events

    /// Whether `nextEvent` has an event to give or a taken list to clear; asked after every
    /// dispatch, so the common case (neither) costs no call.
    var hasEvents: Bool { firstEvent < events.count || firstEvent > 0 }

    /// The next thing the owner must know or do, oldest first; nil when there is none.
    func nextEvent() -> ClientHubEvent? {
        guard firstEvent < events.count else {
            // Asked after every dispatch: only touch the array when there is something to clear.
            if firstEvent > 0 {
                events.removeAll(keepingCapacity: true)
                firstEvent = 0
            }
            return nil
        }
        defer { firstEvent += 1 }
        return events[firstEvent]
    }

    func post(_ event: ClientHubEvent) { events.append(event) }

    // MARK: leaving

    func disconnect(_ client: ClientConnection, reason: String, level: Logger.Level = .info) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        setSubscribed(client, false)
        epoll.remove(client.fd)
        system.close(client.fd)
        closeStreamPipe(of: client)
        if let unsent = client.output.removeAttachment() { system.close(unsent) }
        logger.log(level: level, "client disconnected", metadata: ["client": "\(client.id)", "reason": "\(reason)"])
        if client.explain { updateExplainWanted() }
        if !isClosed { post(.disconnected(client.info)) }
    }

    /// Closes every client and the listening socket; removes the socket file. Once.
    func closeAll() {
        guard !isClosed else { return }
        isClosed = true
        for client in Array(clients.values) { disconnect(client, reason: "daemon stopping") }
        epoll.remove(listenFD)
        system.close(listenFD)
        if let spareDescriptor { system.close(spareDescriptor) }
        spareDescriptor = nil
        if let socketPath { unlink(socketPath) }
    }
}
