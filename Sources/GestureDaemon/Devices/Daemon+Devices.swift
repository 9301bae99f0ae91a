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

/// One open input device.
final class LiveDevice: SurfaceDevice {
    let ref: DeviceRef
    let evdev: EvdevDevice
    var surface: SurfaceConfiguration
    /// The clone the desktop reads while the device is forwarded (Daemon+Forwarding.swift).
    var clone: (any TouchClone)?
    /// Until its position axes have moved (or a problem with them was logged), each read asks
    /// whether its contacts have a position (`watchPosition`).
    var watchesPosition = true
    init(ref: DeviceRef, evdev: EvdevDevice, surface: SurfaceConfiguration, clone: (any TouchClone)? = nil) {
        self.ref = ref
        self.evdev = evdev
        self.surface = surface
        self.clone = clone
    }
}

/// Input devices: found and hot-plugged through libudev, described through libevdev, read with `read(2)`.
extension Daemon {
    // MARK: devices

    func startDevices() {
        do {
            let udev = try Udev()
            self.udev = udev
            do {
                let monitor = try UdevMonitor(udev: udev)
                try epoll.add(monitor.fd, events: .readable)
                self.monitor = monitor
            } catch {
                logger.warning("no udev monitor; hot-plug disabled", metadata: ["error": "\(error)"])
            }
            for info in try udev.inputDevices() { openDevice(info) }
        } catch {
            logger.error("cannot enumerate input devices through udev", metadata: ["error": "\(error)"])
        }
    }

    func openDevice(_ info: UdevDeviceInfo) {
        guard deviceByNode[info.devnode] == nil, info.isCandidate else { return }
        let evdev: EvdevDevice
        do {
            evdev = try EvdevDevice(path: info.devnode)
        } catch {
            // Without udev's word we only probe; failing to open a keyboard is expected then.
            if info.kindHint != nil {
                logger.warning("cannot open touch device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            } else {
                logger.debug("cannot probe input device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            }
            return
        }
        var description = evdev.description
        guard !isClone(evdev, node: info.devnode) else {
            logger.debug("a forwarded device's clone: not opened", metadata: ["path": "\(info.devnode)"])
            return
        }
        // A device configured with `axes:` or named by a `devices.include` rule is opened as a
        // touchscreen whatever its capabilities look like (an eGalax controller that claims a pen):
        // `Configuration.opening`.
        let opening = configuration.opening(description, kindHint: info.kindHint, path: info.devnode)
        let kind = opening.kind
        let decision = opening.decision
        description = described(description, kind: kind)
        guard kind != .other else {
            if description.supports(.key, .btnTouch) {
                logger.info("not a touch device: it reports like a pen (no finger tool); name it in devices.include to open it and see which axes move (gesturectl devices), or give it `axes:` in a surfaces rule",
                            metadata: ["path": "\(info.devnode)", "name": "\(description.name)"])
            } else {
                logger.debug("not a touch device", metadata: ["path": "\(info.devnode)", "name": "\(description.name)"])
            }
            return
        }
        guard decision.selects else {
            logger.info("device not selected by the config",
                        metadata: ["path": "\(info.devnode)", "name": "\(description.name)", "kind": "\(kind.rawValue)",
                                   "rule": "\(configuration.devices.explanation(of: decision, kind: kind))"])
            return
        }
        do {
            try evdev.useMonotonicClock()
        } catch {
            logger.warning("cannot switch device to CLOCK_MONOTONIC; timers may be off", metadata: ["error": "\(error)"])
        }
        if configuration.devices.grab && !configuration.devices.forward {
            do { try evdev.grab(true) } catch {
                logger.warning("cannot grab device", metadata: ["error": "\(error)"])
            }
        }
        do {
            try epoll.add(evdev.fd, events: .readable)
        } catch {
            logger.error("cannot watch device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            return
        }
        let ref = DeviceRef(id: nextDeviceID, name: description.name, kind: kind)
        nextDeviceID += 1
        let surface = apps.surfaces.applied(to: configuration.surface(for: description, kind: kind, path: info.devnode), device: ref)
        let device = LiveDevice(ref: ref, evdev: evdev, surface: surface)
        devices[ref.id] = device
        deviceByFD[evdev.fd] = device
        deviceByNode[info.devnode] = ref.id
        pipeline.addDevice(description, ref: ref, surface: surface)
        bindToDesktop(device, description: description, path: info.devnode)
        if configuration.devices.forward { startForwarding(device) }
        if let axes = surface.axes {
            let missing = [axes.x, axes.y].filter { description.absInfo[$0] == nil }
            if !missing.isEmpty {
                logger.warning("the configured position axes are not on this device",
                               metadata: ["name": "\(description.name)", "path": "\(info.devnode)",
                                          "missing": "\(missing.map(AbsoluteAxisNames.name(of:)).joined(separator: ", "))"])
            }
        }
        logger.info("device added", metadata: [
            "id": "\(ref.id)", "name": "\(description.name)", "kind": "\(kind.rawValue)", "path": "\(info.devnode)",
            "protocol": "\(description.multitouchProtocol.rawValue)", "slots": "\(description.slotCount)",
            "grabbed": "\(evdev.isGrabbed)", "rule": "\(configuration.devices.explanation(of: decision, kind: kind))"])
    }

    /// `description` with the libinput quirks that apply to it (`kind`: as opened), unchanged without quirks.
    func described(_ description: DeviceDescription, kind: DeviceKind) -> DeviceDescription {
        quirks?.applied(to: description, kind: kind, dmiModalias: dmiModalias) ?? description
    }

    /// An injected recording's description with the quirks of its device (no DMI: its machine is
    /// not this one), as `gestured replay` applies them.
    func describedRecording(_ recording: Recording, kind: DeviceKind) -> DeviceDescription {
        quirks?.applied(to: recording.description, kind: kind, dmiModalias: nil) ?? recording.description
    }

    /// Cancels the device's touches (recognizers see cancelled / failed), then frees it.
    func closeDevice(_ id: Int, reason: String) {
        guard let device = devices.removeValue(forKey: id) else { return }
        epoll.remove(device.evdev.fd)
        deviceByFD[device.evdev.fd] = nil
        deviceByNode = deviceByNode.filter { $0.value != id }
        let now = max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero)
        stopForwarding(device, at: now)
        handle(pipeline.removeDevice(id: id, at: now))
        recordings.end(device: id, reason: "device removed (\(reason))")
        logger.info("device removed", metadata: ["id": "\(id)", "name": "\(device.ref.name)", "reason": "\(reason)"])
    }

    func readDevice(_ id: Int) {
        if let device = devices[id] { read(device) }
    }

    /// Reads what the device has queued and feeds it to the pipeline.
    @inline(__always)
    func read(_ device: LiveDevice) {
        let id = device.ref.id
        // Emptied one event at a time: plain values, each removal one uniqueness check at the same
        // call site, where `removeAll(keepingCapacity:)` runs through the generic range replacement
        // (three call sites a wake-up, docs/performance.md).
        while !eventBuffer.isEmpty { eventBuffer.removeLast() }
        let dropped = device.evdev.droppedCount
        let status = device.evdev.read(into: &eventBuffer)
        if device.evdev.droppedCount != dropped {
            logger.notice("SYN_DROPPED: events lost, resyncing", metadata: ["device": "\(device.ref.name)"])
        }
        var latest = lastEventTime?.rawValue ?? Int64.min
        for i in eventBuffer.indices where eventBuffer[i].time.rawValue > latest { latest = eventBuffer[i].time.rawValue }
        if latest != Int64.min { lastEventTime = Timestamp(microseconds: latest) }
        switch MeasurementStage.current {
        case .full, .noSend:
            if device.clone == nil {
                handle(pipeline.feed(eventBuffer, device: id))
            } else {
                // Touches nothing can take reach the desktop before the engine runs on them.
                var failed = false
                let outputs = pipeline.feed(eventBuffer, device: id) { _, events in
                    failed = !writeClone(of: device, events)
                }
                if failed { giveBackAfterFailedWrite(device) }
                handle(outputs)
            }
        case .noOutput: _ = pipeline.feed(eventBuffer, device: id)
        case .readOnly: break
        case .forwardOnly: if device.clone != nil { _ = writeClone(of: device, eventBuffer) }
        }
        // (Not in the forward-only measurement build: its engine never sees the axes.)
        if device.watchesPosition && MeasurementStage.current != .forwardOnly { watchPosition(device) }
        // After the gestures they made were published.
        if recordings.isActive { recordings.capture(eventBuffer, device: id) }
        if case .gone(let error) = status {
            closeDevice(id, reason: error.code == ENODEV ? "unplugged" : "\(error)")
        }
    }

    /// Logs, once, a device whose contacts have no position because its position axes never moved
    /// while others did (`AxisActivity.positionProblem`); stops asking once both position axes moved.
    @inline(never)
    func watchPosition(_ device: LiveDevice) {
        guard let activity = pipeline.axisActivity(ofDevice: device.ref.id) else { return }
        let description = device.evdev.description
        let usual: (EventCode, EventCode) = device.surface.axes.map { ($0.x, $0.y) }
            ?? (description.multitouchProtocol == .singleTouch ? (.absX, .absY) : (.absMTPositionX, .absMTPositionY))
        if activity.hasReported(usual.0) && activity.hasReported(usual.1) {
            device.watchesPosition = false
        } else if let problem = activity.positionProblem(description: description, remapped: device.surface.axes) {
            device.watchesPosition = false
            logger.warning("device gives no touches: its position axes never moved", metadata: [
                "id": "\(device.ref.id)", "name": "\(description.name)", "path": "\(device.evdev.path)",
                "problem": "\(problem)"])
        }
    }

    /// Surface units per mm of the named device, for stepped bindings' lengths (1 when unknown).
    func surfaceUnitsPerMM(device name: String) -> Point {
        if let d = devices.values.first(where: { $0.ref.name == name }) {
            return SurfaceMapper(description: d.evdev.description, surface: d.surface).surfaceUnitsPerMM
        }
        if let d = injected.first(where: { $0.ref.name == name }) {
            return SurfaceMapper(description: d.recording.description, surface: d.surface).surfaceUnitsPerMM
        }
        return Point(x: 1, y: 1)
    }
}
