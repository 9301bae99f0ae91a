import GestureCore

/// A compositor the bridge reads: connects, says which descriptors bring its events, reads the
/// scene. Every failure is a `DesktopSourceError`; the bridge then disconnects and tries again later.
public protocol DesktopSource: AnyObject {
    /// The `backend` of the desktop request: sway, i3, hyprland, niri, x11, gnome.
    var backend: String { get }
    /// What it connects to, for messages (a socket path, a display).
    var target: String { get }
    /// Whether changes can happen with no event (sway / i3 / Hyprland send none when a window is
    /// resized or moved): the bridge then reads again every poll interval while windows exist.
    var missesChanges: Bool { get }
    func connect() throws(DesktopSourceError)
    func disconnect()
    /// Descriptors whose readability means the compositor has news.
    var eventDescriptors: [Int32] { get }
    /// Reads what the event descriptors hold; true when something happened. Throws when the
    /// stream ended or cannot be trusted (the bridge reconnects).
    func drainEvents() throws(DesktopSourceError) -> Bool
    /// Reads the scene now.
    func read() throws(DesktopSourceError) -> Desktop
    /// Whether events came in while the scene was read and wait already read off the descriptors
    /// (libxcb queues the events it meets while waiting for replies): the scene is read again at
    /// once rather than waiting for a descriptor that will not become readable for them.
    func takeQueuedEvents() -> Bool
    /// When the compositor is not at `target`: looks for a newer instance of the same compositor
    /// at its documented socket location (`CompositorDiscovery`: it restarted in this login),
    /// moves there and returns the new target; nil when there is none.
    func relocate() -> String?
    /// What the user should know about the last read that is not a failure (GNOME: the Shell
    /// extension is missing, so the scene has no windows): the bridge logs it when it changes.
    var notice: String? { get }
}

extension DesktopSource {
    public func takeQueuedEvents() -> Bool { false }
    public func relocate() -> String? { nil }
    public var notice: String? { nil }
}

public struct DesktopSourceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How long one request to a compositor may take.
let requestTimeoutMicroseconds: Int64 = 2_000_000
