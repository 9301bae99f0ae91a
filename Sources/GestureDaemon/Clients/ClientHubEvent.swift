import GesturePosix
import GestureProtocol

/// What the client hub tells its owner (the daemon, the replay server), taken with
/// `ClientHub.nextEvent()` after each `acceptAll`, `handle` or `reply`. The hub holds no closure
/// into its owner.
enum ClientHubEvent: Equatable {
    /// A request only the owner can answer (status, devices, hit-test, reload, record, record-stop,
    /// attach, update, detach, set-surface). Answer with
    /// `ClientHub.reply(to:with:)`; that client's later lines wait for it, so replies stay in order.
    case request(PendingRequest)
    /// Whether any client wants explain lines now (told on every change).
    case explainWanted(Bool)
    /// A client subscribed (or replaced its filter).
    case subscribed(ClientInfo)
    /// A client unsubscribed (touch subscribers are responders in the chain, so the owner looks again).
    case unsubscribed(ClientInfo)
    /// A client is gone (the regions and gestures it attached go with it).
    case disconnected(ClientInfo)
}

/// A request waiting for its owner's answer.
struct PendingRequest: Equatable {
    let client: ClientInfo
    let fd: FileDescriptor
    let request: ClientRequest
}
