#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GestureDevices
import GesturePosix
import Logging

/// Forwarding (docs/forwarding.md): a forwarded device is grabbed, and the desktop gets a clone of
/// it with the touches no gesture takes. The clone is made first; only a device whose clone exists
/// is grabbed, so a failure leaves the device to the desktop and gestured reads it as before.
extension Daemon {
    // MARK: forwarding

    /// Makes the device's clone, grabs the device and starts its encoder; logs why when it cannot.
    func startForwarding(_ device: LiveDevice) {
        guard device.clone == nil else {
            pipeline.startForwarding(device: device.ref.id)
            return
        }
        let evdev = device.evdev
        let maker = cloneMaker
        switch ForwardingSetup.start(device: device.ref.name, path: evdev.path,
                                     makeClone: { () throws(SystemCallError) in try maker(evdev) },
                                     grab: { () throws(SystemCallError) in try evdev.grab(true) }) {
        case .forwarding(let clone):
            device.clone = clone
            if let node = clone.devnode { cloneNodes.insert(node) }
            pipeline.startForwarding(device: device.ref.id)
            logger.info("forwarding device", metadata: [
                "id": "\(device.ref.id)", "name": "\(device.ref.name)", "path": "\(evdev.path)",
                "clone": "\(clone.devnode ?? "?")"])
        case .notForwarded(let why):
            logger.warning("\(why)")
        }
    }

    /// Lifts what is down on the clone, destroys it and releases the grab.
    func stopForwarding(_ device: LiveDevice, at time: Timestamp) {
        guard let clone = device.clone else { return }
        let lifts = pipeline.stopForwarding(device: device.ref.id, at: time)
        do { try clone.write(lifts) } catch {
            logger.warning("cannot write to a device's clone", metadata: ["name": "\(device.ref.name)", "error": "\(error)"])
        }
        if let node = clone.devnode { cloneNodes.remove(node) }
        device.clone = nil
        if device.evdev.isGrabbed { try? device.evdev.grab(false) }
        logger.info("forwarding stopped", metadata: ["id": "\(device.ref.id)", "name": "\(device.ref.name)"])
    }

    /// Writes every clone's waiting events. A clone that cannot be written is given up: its device
    /// is released to the desktop (and read as before).
    func writeClones() {
        var failed: [Int] = []
        pipeline.drainForwarded { id, events in
            guard let device = devices[id] else { return }
            if !writeClone(of: device, events) { failed.append(id) }
        }
        for id in failed { if let device = devices[id] { giveBackAfterFailedWrite(device) } }
    }

    /// A clone write failed (`writeClone` logged it): the device goes back to the desktop.
    func giveBackAfterFailedWrite(_ device: LiveDevice) {
        stopForwarding(device, at: max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero))
    }

    /// Writes events to the device's clone; false (logged) when the write fails: the caller then
    /// gives the device back to the desktop (`giveBackAfterFailedWrite`).
    func writeClone(of device: LiveDevice, _ events: [RawEvent]) -> Bool {
        guard let clone = device.clone else { return true }
        do { try clone.write(events) } catch {
            logger.error("cannot write to a device's clone; giving the device back to the desktop",
                         metadata: ["name": "\(device.ref.name)", "error": "\(error)"])
            return false
        }
        return true
    }

    /// Whether an input node is a clone (this daemon's, or any gestured's, by its `phys`): never opened.
    func isClone(_ evdev: EvdevDevice, node: String) -> Bool {
        cloneNodes.contains(node) || evdev.phys.hasPrefix(DeviceClone.physPrefix)
    }
}

/// The order of taking a device for forwarding, as a seam for tests: the clone first, then the grab.
enum ForwardingSetup {
    enum Outcome {
        case forwarding(any TouchClone)
        /// The device is not grabbed; the message names it, the reason and the fix.
        case notForwarded(String)
    }

    static func start(device name: String, path: String,
                      makeClone: () throws(SystemCallError) -> any TouchClone,
                      grab: () throws(SystemCallError) -> Void) -> Outcome {
        let clone: any TouchClone
        do {
            clone = try makeClone()
        } catch {
            return .notForwarded("cannot forward '\(name)' (\(path)): its clone cannot be made (\(error)); "
                + "the device is not grabbed and the desktop keeps it, gestures still work. Fix: "
                + fix(for: error))
        }
        do {
            try grab()
        } catch {
            return .notForwarded("cannot forward '\(name)' (\(path)): EVIOCGRAB failed (\(error)); another program "
                + "has grabbed it. The desktop keeps it, gestures still work. Fix: stop the program that grabs it")
        }
        return .forwarding(clone)
    }

    static func fix(for error: SystemCallError) -> String {
        switch error.code {
        case ENOENT, ENODEV:
            "load the uinput module (`modprobe uinput`, or `uinput` in /etc/modules-load.d/)"
        case EACCES, EPERM:
            "let gestured write /dev/uinput (udev/70-gestured.rules gives the 'input' group access; the service "
                + "needs DeviceAllow=/dev/uinput rw)"
        default:
            "check that /dev/uinput exists and is writable by gestured"
        }
    }
}
