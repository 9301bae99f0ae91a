#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GestureDevices
import GesturePosix
import GestureProtocol
import GestureRecording
import Logging

/// A recording played through the live loop as if it were a device: its timestamps are moved onto
/// CLOCK_MONOTONIC (`offset`, so that its first event is due when injection starts, whatever its
/// recorded times) and its events are fed when the loop's timer reaches them.
final class InjectedDevice: SurfaceDevice {
    let ref: DeviceRef
    let recording: Recording
    var surface: SurfaceConfiguration
    var cursor = 0
    var offset: Int64 = 0
    init(ref: DeviceRef, recording: Recording, surface: SurfaceConfiguration) {
        self.ref = ref
        self.recording = recording
        self.surface = surface
    }
    /// Monotonic time of the next event, nil when done.
    var nextTime: Int64? {
        cursor < recording.events.count ? recording.events[cursor].time.microseconds + offset : nil
    }
}

/// Recordings played through the live loop as devices (`--inject`, `--inject-when-subscribed`).
extension Daemon {
    /// A subscribe, record or attach (`--inject-when-subscribed`): starts the waiting recordings
    /// at the `--inject-after`-th one (the first by default).
    func countTowardsInjection() {
        guard !pendingInjection.isEmpty else { return }
        injectionRequests += 1
        if injectionRequests >= options.injectAfterRequests { startInjection() }
    }

    /// Adds the pending recordings as devices and starts each one's clock now: every recording's
    /// first event is due at once, however far apart their recorded timestamps are (recordings
    /// made on different days would otherwise wait for each other's dates).
    func startInjection() {
        guard !pendingInjection.isEmpty else { return }
        let recordings = pendingInjection
        pendingInjection = []
        inject(recordings)
    }

    /// Who may play recordings into a running daemon (`inject`): root and the daemon's own uid, as
    /// the peer credentials (SO_PEERCRED) of the connection say; nil when `uid` may, else why not.
    static func injectRefusal(uid: UInt32, daemonUID: UInt32) -> String? {
        guard uid != 0 && uid != daemonUID else { return nil }
        return "inject is allowed only to root and to the daemon's own uid (\(daemonUID)); this client's uid is \(uid) "
            + "(from the connection's peer credentials, SO_PEERCRED)"
    }

    /// `inject`: loads every file first (one that cannot be read refuses the whole request), queues
    /// them, and starts the first when nothing injected is playing.
    func answerInject(_ request: ClientRequest, client: ClientInfo) -> String {
        if let refusal = Self.injectRefusal(uid: client.uid, daemonUID: hub.admission.daemonUID) {
            logger.notice("inject refused", metadata: ["client": "\(client.id)", "uid": "\(client.uid)"])
            return ProtocolLine.error(refusal, request: "inject")
        }
        guard let paths = request.paths, !paths.isEmpty else {
            return ProtocolLine.error("inject needs \"paths\": a list of recording files (absolute paths)", request: "inject")
        }
        if let relative = paths.first(where: { !$0.hasPrefix("/") }) {
            return ProtocolLine.error("inject needs absolute paths, got \(ProtocolError.echo(relative)) "
                                      + "(the daemon reads the files; gesturectl inject makes them absolute)", request: "inject")
        }
        let recordings: [Recording]
        do {
            recordings = try Replay.load(paths: paths)
        } catch {
            return ProtocolLine.error("nothing injected: \(error.description)", request: "inject")
        }
        let ahead = injected.count + injectionQueue.count
        injectionQueue += recordings
        logger.info("inject requested", metadata: ["client": "\(client.id)", "uid": "\(client.uid)",
                                                   "files": "\(paths.joined(separator: ", "))"])
        playNextQueued()
        return ProtocolLine.response("inject", [("paths", ProtocolLine.strings(paths)), ("ahead", String(ahead))])
    }

    /// Starts the next queued `inject` recording when no injected recording is playing; one the config
    /// does not select is skipped (and logged) for the next.
    func playNextQueued() {
        while injected.isEmpty && !injectionQueue.isEmpty {
            inject([injectionQueue.removeFirst()])
        }
    }

    /// Adds `recordings` as devices and starts each one's clock now.
    func inject(_ recordings: [Recording]) {
        let now = monotonicMicroseconds()
        for recording in recordings {
            let start = recording.events.first?.time.microseconds ?? 0
            // As a live device: one the config does not select is not read.
            let opening = configuration.opening(recording.description, path: recording.description.path ?? recording.source)
            let kind = opening.kind
            let decision = opening.decision
            let rule = configuration.devices.explanation(of: decision, kind: kind)
            guard decision.selects else {
                logger.notice("not injecting recording: device not selected by the config", metadata: [
                    "name": "\(recording.description.name)", "file": "\(recording.source)", "rule": "\(rule)"])
                continue
            }
            let ref = DeviceRef(id: nextDeviceID, name: recording.description.name, kind: kind)
            nextDeviceID += 1
            let surface = apps.surfaces.applied(
                to: configuration.surface(for: recording.description, kind: kind, path: recording.source), device: ref)
            let device = InjectedDevice(ref: ref, recording: recording, surface: surface)
            device.offset = now - start
            injected.append(device)
            if configuration.devices.forward {
                logger.notice("""
                    forwarding skipped for an injected recording: it has no device to take and no clone is made \
                    (devices: forward: true applies to real devices; `gestured replay --forward OUT.evemu FILE` \
                    shows what the desktop would get)
                    """, metadata: ["id": "\(ref.id)", "file": "\(recording.source)"])
            }
            pipeline.addDevice(describedRecording(recording, kind: kind), ref: ref, surface: surface)
            bindToDesktop(device, description: recording.description, path: recording.source)
            logger.info("injecting recording", metadata: ["id": "\(ref.id)", "name": "\(ref.name)",
                                                           "file": "\(recording.source)", "events": "\(recording.events.count)",
                                                           "rule": "\(rule)"])
        }
    }

    /// Feeds every injected event due by `now`, in time order across recordings; a finished
    /// recording is removed like an unplugged device.
    func feedInjected(until now: Int64) {
        var recorded: [Int: [RawEvent]] = [:]
        while true {
            var pick: InjectedDevice?
            for device in injected {
                guard let t = device.nextTime, t <= now else { continue }
                if pick == nil || t < pick!.nextTime! { pick = device }
            }
            guard let device = pick else { break }
            var event = device.recording.events[device.cursor]
            device.cursor += 1
            event.time = Timestamp(microseconds: event.time.microseconds + device.offset)
            lastEventTime = max(lastEventTime ?? event.time, event.time)
            handle(pipeline.feed(event, device: device.ref.id))
            if recordings.isActive { recorded[device.ref.id, default: []].append(event) }
        }
        for (id, events) in recorded.sorted(by: { $0.key < $1.key }) { recordings.capture(events, device: id) }
        for device in injected where device.nextTime == nil {
            if let problem = pipeline.axisActivity(ofDevice: device.ref.id)?
                .positionProblem(description: device.recording.description, remapped: device.surface.axes) {
                logger.warning("device gave no touches: its position axes never moved", metadata: [
                    "id": "\(device.ref.id)", "name": "\(device.ref.name)", "file": "\(device.recording.source)",
                    "problem": "\(problem)"])
            }
            let end = max(Timestamp(microseconds: now), lastEventTime ?? .zero)
            handle(pipeline.removeDevice(id: device.ref.id, at: end))
            recordings.end(device: device.ref.id, reason: "injected recording finished")
            logger.info("injected recording finished", metadata: ["id": "\(device.ref.id)", "file": "\(device.recording.source)"])
        }
        injected.removeAll { $0.nextTime == nil }
        playNextQueued()
    }
}
