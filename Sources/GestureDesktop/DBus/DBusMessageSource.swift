/// A desktop source fed by the messages of a D-Bus connection (GNOME, KWin). Reading the messages and
/// taking the ones libdbus has already queued are the same for every such source; what the messages
/// mean is each source's `handle`.
protocol DBusMessageSource: DesktopSource {
    /// The connection, nil when not connected.
    var messageBus: DBusConnection? { get }
    /// Whether the messages say something changed; throws when the desktop left the bus.
    func handle(_ messages: [DBusConnection.Message]) throws(DesktopSourceError) -> Bool
}

extension DBusMessageSource {
    /// `drainEvents`: reads the connection and handles what came.
    func drainBus() throws(DesktopSourceError) -> Bool {
        guard let bus = messageBus else { throw DesktopSourceError("\(target): not connected") }
        return try handle(bus.takeMessages(read: true))
    }

    /// `takeQueuedEvents`: handles the messages already read (a desktop that left says "changed": the
    /// next drain reports it).
    func takeQueuedBusMessages() -> Bool {
        guard let bus = messageBus, bus.hasQueuedMessages else { return false }
        do { return try handle(bus.takeMessages(read: false)) } catch { return true }
    }
}
