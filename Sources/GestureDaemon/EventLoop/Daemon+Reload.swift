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

/// Reload (SIGHUP or the `reload` request): a new configuration, checked whole before anything changes.
extension Daemon {
    // MARK: reload

    /// Loads the config again. A broken one is refused (logged, returned) and the old one keeps running.
    func reload(origin: String) -> Result<Void, ConfigErrors> {
        notifier.reloading()
        defer { notifier.ready() }
        let newConfiguration: Configuration
        do {
            let path = options.configPath ?? defaultConfigurationPath()
            newConfiguration = try loadConfiguration(path: path)
            configSource = path ?? "default"
        } catch {
            logger.error("reload refused; keeping the running config",
                         metadata: ["origin": "\(origin)", "errors": "\(error.description)"])
            return .failure(error)
        }
        apply(newConfiguration)
        logger.info("configuration reloaded", metadata: ["origin": "\(origin)", "devices": "\(devices.count)"])
        // The socket is made at start only: what would stop the next start is a warning now.
        let problems = startupProblems(newConfiguration, socketOverride: options.socketPath,
                                       socketActivated: hub.socketPath == nil)
        if !problems.isEmpty {
            logger.warning("the reloaded config would stop the next start:\n\(ConfigErrors(errors: problems).description)")
        }
        return .success(())
    }

    func apply(_ newConfiguration: Configuration) {
        let now = max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero)
        // Open gestures end as cancelled under the old config; every device restarts clean.
        for id in devices.keys.sorted() {
            // The clone keeps its touches' lifts; the clone itself stays while forwarding stays on.
            if let device = devices[id], let clone = device.clone {
                try? clone.write(pipeline.stopForwarding(device: id, at: now))
            }
            handle(pipeline.removeDevice(id: id, at: now))
        }
        for device in injected { handle(pipeline.removeDevice(id: device.ref.id, at: now)) }
        if newConfiguration.socket != configuration.socket {
            logger.notice("socket path, mode and owner changes take effect at restart")
        }
        configuration = newConfiguration
        var engine = GestureEngine(configuration: newConfiguration.engine)
        engine.explains = pipeline.engine.explains
        // The bridge's windows stay; the new window rules apply to them (below).
        let desktop = pipeline.engine.desktop
        pipeline = GesturePipeline(engine: engine)
        hub.queueLimit = max(1, newConfiguration.socket.clientQueueLimit)
        apps.regionLimit = newConfiguration.socket.clientRegionLimit
        apps.gestureLimit = newConfiguration.socket.clientGestureLimit
        for (client, line) in apps.reattach(&pipeline) { hub.sendLine(line, toClient: client) }
        refreshTouchSubscribers()
        hub.allowedUIDs = newConfiguration.socket.allowedUIDs
        bindings.configure(newConfiguration)

        let old = devices
        devices = [:]
        deviceByFD.removeAll()
        deviceByNode = [:]
        for (id, device) in old.sorted(by: { $0.key < $1.key }) {
            let desc = device.evdev.description
            guard newConfiguration.devices.selects(desc, kind: device.ref.kind, path: device.evdev.path) else {
                stopForwarding(device, at: now)
                epoll.remove(device.evdev.fd)
                recordings.end(device: id, reason: "device no longer selected by the reloaded config")
                logger.info("device no longer selected", metadata: ["id": "\(id)", "name": "\(desc.name)"])
                continue
            }
            if !newConfiguration.devices.forward { stopForwarding(device, at: now) }
            let grab = newConfiguration.devices.grab || device.clone != nil
            if device.evdev.isGrabbed != grab { try? device.evdev.grab(grab) }
            let surface = apps.surfaces.applied(
                to: newConfiguration.surface(for: desc, kind: device.ref.kind, path: device.evdev.path), device: device.ref)
            let live = LiveDevice(ref: device.ref, evdev: device.evdev, surface: surface, clone: device.clone)
            devices[id] = live
            deviceByFD[device.evdev.fd] = live
            deviceByNode[device.evdev.path] = id
            pipeline.addDevice(described(desc, kind: device.ref.kind), ref: device.ref, surface: surface)
            if newConfiguration.devices.forward { startForwarding(live) }
        }
        for device in injected {
            pipeline.addDevice(describedRecording(device.recording, kind: device.ref.kind), ref: device.ref, surface: device.surface)
        }
        if let udev, options.opensDevices, let infos = try? udev.inputDevices() {
            for info in infos { openDevice(info) }
        }
        applyDesktop(desktop)
    }
}
