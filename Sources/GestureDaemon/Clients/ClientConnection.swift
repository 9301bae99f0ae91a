import GestureCore
import GesturePosix
import GestureProtocol

/// Who a client is, as a value the daemon can keep, log and answer to.
struct ClientInfo: Hashable, Sendable {
    /// Unique for the daemon's lifetime (file descriptors are reused; ids are not).
    let id: Int
    let pid: Int32
    let uid: UInt32
    var name: String { "client \(id) (pid \(pid), uid \(uid))" }
}

/// One connected socket client: its input lines, its output queue, its subscription and where it
/// is in the request / reply cycle. Owned by the loop thread.
final class ClientConnection {
    let info: ClientInfo
    let fd: FileDescriptor
    var input: RequestLineReader
    var output = ClientOutputQueue()
    /// Changed only through `ClientHub.setSubscribed` (ClientFanOut.swift), which keeps the hub's
    /// list of subscribers with it.
    var subscribed = false
    var filter = SubscriptionFilter()
    var explain = false
    /// A request went to the hub's owner (`ClientHubEvent.request`); later lines wait for its reply.
    var awaitingReply = false
    /// The peer finished sending (read returned 0): answer what it sent, then close, unless lines
    /// are still coming to it (`receivesLines`): a shell pipe that subscribes and ends its input
    /// keeps its gestures until it closes its end.
    var inputEnded = false
    /// Recording a device through the socket (set and cleared by `DeviceRecordings`).
    var recording = false
    /// Attached regions or gestures (set by the owner's attach): their gestures come to it unasked.
    var attached = false
    /// Whether lines still come to the client without a request: a subscription, explain lines,
    /// a recording, or the gestures of what it attached.
    var receivesLines: Bool { subscribed || explain || recording || attached }
    /// The epoll events currently registered.
    var interest: EpollEvents = .readable
    /// Where its streamed lines go when it asked for a pipe (`"stream":"pipe"`); nil: its socket.
    var stream: StreamPipe?

    init(info: ClientInfo, fd: FileDescriptor, lineLimit: Int) {
        self.info = info
        self.fd = fd
        self.input = RequestLineReader(limit: lineLimit)
    }

    var id: Int { info.id }
    var uid: UInt32 { info.uid }
    var name: String { info.name }
}

/// The daemon's end of a client's stream pipe (ClientStreamPipe.swift): streamed lines only, with
/// their own bounded queue, so replies on the socket never wait behind them. Owned by the loop
/// thread (a class: a line is queued in place, the queue never copied).
final class StreamPipe {
    /// The write end (non-blocking).
    let fd: FileDescriptor
    var output = ClientOutputQueue()
    /// Whether epoll watches it for room (it is always watched for the reader leaving).
    var waitingForRoom = false
    init(fd: FileDescriptor) { self.fd = fd }
}
