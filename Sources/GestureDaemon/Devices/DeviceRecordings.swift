import GestureCore
import GesturePosix
import GestureProtocol
import GestureRecording
import Logging

/// The `record` request (docs/protocol.md): clients receiving the raw events the daemon reads from
/// one device, as evemu text, after a response carrying the device's evemu header.
///
/// Recording never holds back anyone else: the events are sent after the gestures they produced
/// were published, through the client's own bounded queue, and a recorder whose queue is full
/// loses its recording (it gets a `record-end` line with reason "too slow") instead of making the
/// daemon buffer more. Owned by the loop thread.
final class DeviceRecordings {
    /// A device that can be recorded.
    struct Target {
        var id: Int
        var name: String
        var path: String
        var description: DeviceDescription
        var kind: DeviceKind
    }

    private final class Session {
        let client: ClientInfo
        let fd: FileDescriptor
        let device: Int
        let deadline: Int64?
        var events = 0
        init(client: ClientInfo, fd: FileDescriptor, device: Int, deadline: Int64?) {
            self.client = client
            self.fd = fd
            self.device = device
            self.deadline = deadline
        }
    }

    private var sessions: [Session] = []
    private let hub: ClientHub
    private let logger: Logger

    /// Longest recording one request may ask for (a day).
    static let maximumSeconds = 86_400.0

    init(hub: ClientHub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    var isActive: Bool { !sessions.isEmpty }
    var count: Int { sessions.count }
    /// CLOCK_MONOTONIC µs when the first timed recording ends.
    /// Asked at every loop turn: no array is built, and with no recording nothing is called.
    @inline(__always)
    var nextDeadline: Int64? { sessions.isEmpty ? nil : earliestSessionDeadline() }

    private func earliestSessionDeadline() -> Int64? {
        var earliest: Int64?
        for session in sessions {
            if let d = session.deadline, earliest == nil || d < earliest! { earliest = d }
        }
        return earliest
    }

    // MARK: requests

    /// Starts recording for `client`; returns the response (with the evemu header) or an error line.
    func start(_ request: ClientRequest, client: ClientInfo, fd: FileDescriptor, devices: [Target], now: Int64) -> String {
        prune()
        if let current = sessions.first(where: { $0.client == client }) {
            return ProtocolLine.error("already recording device \(current.device) on this connection; send record-stop first",
                                      request: "record")
        }
        let list = devices.map { "\($0.id) '\($0.name)' (\($0.path))" }.joined(separator: ", ")
        let target: Target
        if let wanted = request.device {
            guard let found = devices.first(where: { String($0.id) == wanted }) ?? devices.first(where: { $0.name == wanted }) else {
                return ProtocolLine.error(devices.isEmpty ? "no device '\(wanted)': the daemon has no device open"
                                                          : "no device '\(wanted)'; devices: \(list)", request: "record")
            }
            target = found
        } else {
            guard let only = devices.first else {
                return ProtocolLine.error("no device to record: the daemon has no device open", request: "record")
            }
            guard devices.count == 1 else {
                return ProtocolLine.error("several devices are open; name one with \"device\" (name or id): \(list)",
                                          request: "record")
            }
            target = only
        }
        var deadline: Int64?
        if let seconds = request.seconds {
            guard seconds > 0, seconds <= Self.maximumSeconds else {
                return ProtocolLine.error("\"seconds\" must be more than 0 and at most \(Int(Self.maximumSeconds)), found \(seconds)",
                                          request: "record")
            }
            deadline = now + Int64(seconds * 1_000_000)
        }
        sessions.append(Session(client: client, fd: fd, device: target.id, deadline: deadline))
        if let connection = hub.clients[fd], connection.info == client { connection.recording = true }
        logger.info("recording started", metadata: ["client": "\(client.id)", "device": "\(target.id)",
                                                    "name": "\(target.name)", "seconds": "\(request.seconds.map { "\($0)" } ?? "until stopped")"])
        let header = EvemuWriter.header(target.description, comments: [
            "Recorded by gestured \(DaemonVersion.version) through its socket (gesturectl record)",
            "Device \(target.id) at \(target.path), kind \(target.kind.rawValue); event times are CLOCK_MONOTONIC seconds",
        ])
        var device = JSONLine()
        device.add("id", target.id)
        device.add("name", target.name)
        device.add("path", target.path)
        device.add("kind", target.kind.rawValue)
        var fields = [("device", device.line)]
        if let seconds = request.seconds { fields.append(("seconds", JSONLine.number(seconds))) }
        fields.append(("header", ProtocolLine.string(header)))
        return ProtocolLine.response("record", fields)
    }

    /// `record-stop`: ends this client's recording (its record-end line comes before the response).
    func stop(client: ClientInfo) -> String {
        let had = sessions.contains { $0.client == client }
        finish(where: { $0.client == client }, reason: "stopped")
        return ProtocolLine.response("record-stop", [("recording", had ? "true" : "false")])
    }

    // MARK: events

    /// Sends one read's events of `device` to its recorders.
    func capture<C: Collection>(_ events: C, device: Int) where C.Element == RawEvent {
        guard !events.isEmpty, sessions.contains(where: { $0.device == device }) else { return }
        prune()
        var line: String?
        var slow: [Session] = []
        for session in sessions where session.device == device {
            guard let connection = connection(of: session) else { continue }
            if connection.output.count >= hub.queueLimit {
                slow.append(session)
                continue
            }
            if line == nil {
                var j = JSONLine()
                j.add("type", "record")
                j.add("device", device)
                j.add("events", EvemuWriter.events(events))
                line = j.line
            }
            session.events += events.count
            hub.enqueueWhole(line!, to: connection)
        }
        for session in slow {
            logger.notice("recorder too slow; its recording ends", metadata: [
                "client": "\(session.client.id)", "device": "\(device)", "events": "\(session.events)"])
            end(session, reason: "too slow",
                message: "this client read too slowly (\(hub.queueLimit) lines queued); the recording stops here, "
                    + "after \(session.events) events, and other clients were not affected")
        }
        sessions.removeAll { session in slow.contains { $0 === session } }
    }

    /// Ends every recording of a device (removed, no longer selected...).
    func end(device: Int, reason: String) {
        finish(where: { $0.device == device }, reason: reason)
    }

    /// Ends the recordings whose time is up.
    func expire(now: Int64) {
        finish(where: { ($0.deadline ?? .max) <= now }, reason: "time")
    }

    func endAll(reason: String) {
        finish(where: { _ in true }, reason: reason)
    }

    // MARK: private

    private func finish(where matches: (Session) -> Bool, reason: String) {
        prune()
        let ending = sessions.filter(matches)
        guard !ending.isEmpty else { return }
        sessions.removeAll(where: matches)
        for session in ending { end(session, reason: reason, message: nil) }
    }

    private func end(_ session: Session, reason: String, message: String?) {
        var j = JSONLine()
        j.add("type", "record-end")
        j.add("device", session.device)
        j.add("events", session.events)
        j.add("reason", reason)
        if let message { j.add("message", message) }
        if let connection = connection(of: session) {
            connection.recording = false
            hub.enqueueWhole(j.line, to: connection)
        }
        logger.info("recording ended", metadata: ["client": "\(session.client.id)", "device": "\(session.device)",
                                                  "events": "\(session.events)", "reason": "\(reason)"])
    }

    /// The session's client while it is still connected (descriptors are reused; ids are not).
    private func connection(of session: Session) -> ClientConnection? {
        guard let connection = hub.clients[session.fd], connection.info == session.client else { return nil }
        return connection
    }

    /// Forgets recordings of clients that disconnected.
    private func prune() {
        sessions.removeAll { connection(of: $0) == nil }
    }
}
