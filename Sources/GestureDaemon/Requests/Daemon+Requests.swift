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

/// The requests the client hub hands to the daemon (ClientHubEvent.request): status, devices,
/// hit-test, reload, record, and the app requests (AppRequests.swift).
extension Daemon {
    // MARK: requests

    func answer(_ pending: PendingRequest) -> String {
        let request = pending.request
        let client = pending.client
        switch request.request {
        case "status":
            let uptime = Double(monotonicMicroseconds() - started) / 1_000_000
            return ProtocolLine.response("status", [
                ("version", ProtocolLine.string(DaemonVersion.version)),
                ("commit", ProtocolLine.string(DaemonVersion.commit)),
                ("protocol", String(DaemonVersion.protocolVersion)),
                ("config", ProtocolLine.string(configSource)),
                ("uptime", JSONLine.number(uptime)),
                ("devices", String(devices.count + injected.count)),
                ("clients", String(hub.clientCount)),
            ] + bindings.statusFields + [
                ("explain", pipeline.engine.explains ? "true" : "false"),
                ("recordings", String(recordings.count)),
            ] + apps.statusFields + [
                ("desktop", seatBridges.statusField(desktop: pipeline.engine.desktop, now: monotonicMicroseconds())),
                // What a subscribe filter can name (gesturectl checks --gesture and --region).
                ("gestures", ProtocolLine.strings(configuration.engine.gestureIDs)),
                ("regions", ProtocolLine.strings(Self.regionIDs(configuration.engine.root))),
            ])
        case "devices":
            let list = devices.keys.sorted().map { id -> String in
                let d = devices[id]!
                let desc = d.evdev.description
                var j = JSONLine()
                j.add("id", id)
                j.add("name", desc.name)
                j.add("kind", d.ref.kind.rawValue)
                j.add("path", d.evdev.path)
                j.add("vendor", hex4(desc.vendor))
                j.add("product", hex4(desc.product))
                j.add("protocol", desc.multitouchProtocol.rawValue)
                j.add("slots", desc.slotCount)
                j.add("grabbed", d.evdev.isGrabbed)
                if let clone = d.clone { j.add("clone", clone.devnode ?? "") }
                j.add("surface", d.surface.size(for: desc))
                addAxes(to: &j, device: id, description: desc, surface: d.surface)
                return j.line
            }
            let fed = injected.map { d -> String in
                var j = JSONLine()
                j.add("id", d.ref.id)
                j.add("name", d.ref.name)
                j.add("kind", d.ref.kind.rawValue)
                j.add("path", d.recording.source)
                j.add("injected", true)
                j.add("surface", d.surface.size(for: d.recording.description))
                addAxes(to: &j, device: d.ref.id, description: d.recording.description, surface: d.surface)
                return j.line
            }
            return ProtocolLine.response("devices", [("devices", ProtocolLine.array(list + fed))])
        case "hit-test":
            guard let x = request.x, let y = request.y else {
                return ProtocolLine.error("hit-test needs numeric \"x\" and \"y\"", request: "hit-test")
            }
            if let output = request.output { return hitTestOutput(output, x: x, y: y, client: client.id) }
            var size: Point
            var kind = DeviceKind.touchscreen
            var deviceName: String?
            var deviceID: Int?
            if let wanted = request.device {
                guard let d = devices.values.first(where: { $0.ref.name == wanted || String($0.ref.id) == wanted }) else {
                    return ProtocolLine.error("no device \(ProtocolError.echo(wanted)) (see the devices request)", request: "hit-test")
                }
                size = d.surface.size(for: d.evdev.description)
                kind = d.ref.kind
                deviceName = d.ref.name
                deviceID = d.ref.id
            } else if let d = devices.keys.min().flatMap({ devices[$0] }) {
                size = d.surface.size(for: d.evdev.description)
                kind = d.ref.kind
                deviceName = d.ref.name
                deviceID = d.ref.id
            } else {
                size = configuration.surfaces.compactMap(\.surface.size).first ?? Point(x: 100, y: 100)
            }
            let ids = pipeline.engine.hitTest(Point(x: x, y: y), surfaceSize: size, deviceKind: kind, device: deviceID)
            let chain = ids.map { ClientNamespace.local($0, for: client.id) }
            var fields = [("chain", ProtocolLine.strings(chain))]
            if ids.contains(where: { $0.hasPrefix(DesktopRegions.windowPrefix) }) {
                fields.append(("names", ProtocolLine.strings(ids.map { regionLabel($0, client: client.id) })))
            }
            if let deviceName { fields.append(("device", ProtocolLine.string(deviceName))) }
            fields.append(("surface", "{\"x\":\(JSONLine.number(size.x)),\"y\":\(JSONLine.number(size.y))}"))
            return ProtocolLine.response("hit-test", fields)
        case "record":
            // A recorder counts as a subscriber for --inject-when-subscribed.
            countTowardsInjection()
            return recordings.start(request, client: client, fd: pending.fd, devices: recordableDevices(),
                                    now: monotonicMicroseconds())
        case "record-stop":
            return recordings.stop(client: client)
        case "reload":
            logger.info("reload requested", metadata: ["client": "\(client.id)", "uid": "\(client.uid)"])
            switch reload(origin: client.name) {
            case .success: return ProtocolLine.response("reload", [("config", ProtocolLine.string(configSource))])
            case .failure(let error): return ProtocolLine.error("config refused; the old one keeps running:\n\(error.description)", request: "reload")
            }
        case "desktop":
            return answerDesktop(pending)
        case "inject":
            return answerInject(request, client: client)
        case "scene":
            return answerScene(client: client.id)
        case "attach", "update", "detach", "set-surface":
            let answer = apps.answer(request, client: client, pipeline: &pipeline,
                                     devices: devices.values.map { $0 as any SurfaceDevice } + injected.map { $0 as any SurfaceDevice }, at: now)
            if !apps.attached.isEmpty { hub.ownedLinesPossible = true }
            // Its gestures keep coming to it after it ends its input (ClientConnection.receivesLines).
            if let connection = hub.clients[pending.fd], connection.info == client {
                connection.attached = apps.attached.contains { $0.client == client.id }
            }
            handle(answer.outputs)
            if answer.changed { refreshTouchSubscribers() }
            // An attached app receives its gestures without subscribing: for --inject-when-subscribed
            // its attach is its subscribe, counted once its regions are in place (docs/daemon.md,
            // "Injected recordings").
            if request.request == "attach", answer.reply.hasPrefix("{\"type\":\"response\"") { countTowardsInjection() }
            return answer.reply
        default:
            return ProtocolLine.error("unsupported request '\(request.request)'", request: request.request)
        }
    }

    /// The ids of a region tree, depth first.
    static func regionIDs(_ region: RegionSpec) -> [String] {
        [region.id] + region.children.flatMap(regionIDs)
    }

    /// Every open and injected device, for `record`.
    func recordableDevices() -> [DeviceRecordings.Target] {
        devices.keys.sorted().map { id in
            let d = devices[id]!
            return .init(id: id, name: d.ref.name, path: d.evdev.path, description: d.evdev.description, kind: d.ref.kind)
        } + injected.map { .init(id: $0.ref.id, name: $0.ref.name, path: $0.recording.source,
                                  description: $0.recording.description, kind: $0.ref.kind) }
    }

    /// The engine's clock now: monotonic time, never before the last event fed.
    var now: Timestamp { max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero) }

    /// Regions with a touch subscriber are touch consumers in the responder chain.
    func refreshTouchSubscribers() {
        pipeline.engine.setTouchSubscribers(apps.touchSubscribers(hub.clients.values, engine: pipeline.engine))
    }

    func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
    /// Which axes of the device moved and which did not, and a position problem if there is one
    /// (`AxisActivity`): what tells a device whose position comes on other axes (`axes:`).
    func addAxes(to j: inout JSONLine, device id: Int, description: DeviceDescription, surface: SurfaceConfiguration) {
        if let axes = surface.axes {
            j.add("position-axes", "x \(AbsoluteAxisNames.name(of: axes.x)), y \(AbsoluteAxisNames.name(of: axes.y))")
        }
        guard let activity = pipeline.axisActivity(ofDevice: id) else { return }
        let axes = activity.axes(of: description)
        let names = { (codes: [EventCode]) in ProtocolLine.strings(codes.map(AbsoluteAxisNames.name(of:))) }
        j.addRaw("axes-moved", names(axes.moved))
        j.addRaw("axes-still", names(axes.still))
        if let problem = activity.positionProblem(description: description, remapped: surface.axes) {
            j.add("position", problem)
        }
    }
}
