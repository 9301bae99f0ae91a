import GestureConfig
import GesturePosix
import GestureCore
import GestureProtocol

/// The daemon's side of the desktop (docs/desktop.md): a bridge's snapshots become the engine's
/// output and window regions; touchscreens take their output's logical size and transform while
/// a bridge is connected; the bridge's windows go the moment it disconnects or is replaced.
extension Daemon {
    /// Answers a `desktop` request.
    func answerDesktop(_ pending: PendingRequest) -> String {
        let client = pending.client
        switch seatBridges.receive(pending.request.line ?? "", client: client.id, now: monotonicMicroseconds()) {
        case .refused(let reply):
            logger.notice("desktop snapshot refused", metadata: [
                "client": "\(client.name)", "error": "\(ProtocolLine.message(ofError: reply) ?? reply)"])
            return reply
        case .accepted(let reply, let complete, let replacedClient):
            if let old = replacedClient {
                var j = JSONLine()
                j.add("type", "desktop-replaced")
                j.add("seat", SeatBridgeRegistry.seat)
                j.add("by", client.id)
                hub.sendLine(j.line, toClient: old)
                logger.notice("desktop bridge replaced", metadata: ["old": "\(old)", "new": "\(client.name)"])
                applyDesktop(nil)
            } else if complete != nil && pipeline.engine.desktop == nil {
                logger.info("desktop bridge connected", metadata: ["client": "\(client.name)",
                                                                   "backend": "\(seatBridges.backend)"])
            }
            if let complete { applyDesktop(complete) }
            return reply
        }
    }

    /// Sends a line to the seat's desktop bridge (a binding's `window-action`); false without one.
    func sendToDesktopBridge(_ line: String) -> Bool {
        guard let bridge = seatBridges.bridge else { return false }
        hub.sendLine(line, toClient: bridge)
        return true
    }

    /// Client `client` left: when it was the bridge, its windows go at once.
    func desktopClientGone(_ client: Int) {
        guard seatBridges.clientGone(client) else { return }
        logger.notice("desktop bridge disconnected: its windows are dropped", metadata: ["client": "\(client)"])
        applyDesktop(nil)
    }

    /// Makes `desktop` the engine's (nil: none) and binds every device to it. The lines the change
    /// makes (a gesture cancelled on a window that went) still name the windows as they were; the
    /// lines after it, as they are now.
    func applyDesktop(_ desktop: Desktop?) {
        handle(pipeline.engine.setDesktop(desktop, at: now))
        hub.lines.windows = pipeline.engine.windowNames
        bindDevicesToDesktop()
    }

    /// Every device's output and surface, after the desktop or the devices changed.
    func bindDevicesToDesktop() {
        for id in devices.keys.sorted() {
            let d = devices[id]!
            bindToDesktop(d, description: d.evdev.description, path: d.evdev.path)
        }
        for d in injected { bindToDesktop(d, description: d.recording.description, path: d.recording.source) }
    }

    /// Device `device`'s output (`surfaces[].output`, or the default) and, for a touchscreen on an
    /// output of the desktop, that output's logical size and rotation as its surface (from its next
    /// touch sequence); without a bridge, the config's surface (with `set-surface` changes).
    func bindToDesktop(_ device: any SurfaceDevice, description: DeviceDescription, path: String) {
        let ref = device.ref
        let named = configuration.output(for: description, kind: ref.kind, path: path)
        pipeline.engine.setOutput(named, forDevice: ref.id)
        var surface = apps.surfaces.applied(to: configuration.surface(for: description, kind: ref.kind, path: path), device: ref)
        if ref.kind == .touchscreen, let desktop = pipeline.engine.desktop {
            if let name = pipeline.engine.output(forDevice: ref.id), let o = desktop.output(named: name) {
                if surface.rotation != o.transform.rotation && desktopNotes.insert("rotation \(ref.id) \(name) \(o.transform.rawValue)").inserted {
                    logger.notice("the configured rotation is overridden by the output's transform while a desktop bridge is connected", metadata: [
                        "device": "\(ref.name)", "rotation": "\(surface.rotation.rawValue)", "output": "\(name)",
                        "transform": "\(o.transform.rawValue)"])
                }
                surface = surface.following(o)
                if o.transform.isFlipped && desktopNotes.insert("flipped \(name)").inserted {
                    logger.notice("output is flipped: the touchscreen takes its rotation only", metadata: [
                        "output": "\(name)", "transform": "\(o.transform.rawValue)"])
                }
            } else if desktopNotes.insert("unbound \(ref.id) \(desktop.outputs.map(\.name))").inserted {
                logger.notice("touchscreen on no output: its touches hit no window", metadata: [
                    "device": "\(ref.name)", "configured": "\(named ?? "-")",
                    "outputs": "\(desktop.outputs.map(\.name).joined(separator: ","))"])
            }
        }
        guard surface != device.surface else { return }
        device.surface = surface
        pipeline.setSurface(surface, device: ref.id)
    }

    /// `hit-test` with `output`: the chain at a point of an output of the desktop.
    func hitTestOutput(_ name: String, x: Double, y: Double, client: Int) -> String {
        guard let desktop = pipeline.engine.desktop else {
            return ProtocolLine.error("output: no desktop bridge is connected (see docs/desktop.md)", request: "hit-test")
        }
        guard let chain = pipeline.engine.hitTest(output: name, at: Point(x: x, y: y)) else {
            return ProtocolLine.error("output: no output \(ProtocolError.echo(name)) on the desktop (it has "
                + desktop.outputs.map(\.name).joined(separator: ", ") + ")", request: "hit-test")
        }
        let o = desktop.output(named: name)!
        return ProtocolLine.response("hit-test", [
            ("chain", ProtocolLine.strings(chain.map { ClientNamespace.local($0, for: client) })),
            ("names", ProtocolLine.strings(chain.map { regionLabel($0, client: client) })),
            ("output", ProtocolLine.string(name)),
            ("surface", "{\"x\":\(JSONLine.number(o.width)),\"y\":\(JSONLine.number(o.height))}"),
        ])
    }

    /// A region as people read it: a window's as `window:12 (foot "~")`, others by id.
    func regionLabel(_ id: String, client: Int) -> String {
        guard let (w, rule) = pipeline.engine.window(forRegion: id) else { return ClientNamespace.local(id, for: client) }
        return w.label + (rule.map { " rule \($0)" } ?? "")
    }
}
