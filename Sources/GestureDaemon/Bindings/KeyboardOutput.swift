#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureDevices
import Logging
import GesturePosix
import GestureProtocol

/// Where `keys:` bindings' strokes go: the virtual keyboard, or a stand-in in tests.
protocol KeySink: AnyObject {
    var devnode: String? { get }
    func send(_ strokes: [KeyStroke]) throws(SystemCallError)
}

extension VirtualKeyboard: KeySink {}

extension KeyCombo {
    /// Pressed in order, released in reverse.
    var strokes: [KeyStroke] {
        codes.map { KeyStroke(code: $0, pressed: true) } + codes.reversed().map { KeyStroke(code: $0, pressed: false) }
    }
}

/// The daemon's one virtual keyboard for `keys:` bindings: created with exactly the keys the
/// config uses, re-created when a reload changes that set, removed when no binding sends keys.
/// When it cannot be created (no /dev/uinput, no permission) the reason and its fix are logged
/// once per attempt (start, reload), keys are dropped, everything else keeps running, and `status`
/// shows why. Owned by the loop thread.
final class KeyboardOutput {
    enum State: Equatable {
        /// No binding sends keys.
        case none
        case ready(devnode: String?)
        case unavailable(SystemCallError)
    }

    typealias Factory = (Set<UInt16>, String) throws(SystemCallError) -> any KeySink

    let uinputPath: String
    private let factory: Factory
    private let logger: Logger
    private(set) var keys: Set<UInt16> = []
    private var sink: (any KeySink)?
    private(set) var state: State = .none
    /// Key combinations not sent because the keyboard is unavailable (or a write failed).
    private(set) var droppedCount = 0
    /// Combinations sent.
    private(set) var sentCount = 0

    init(uinputPath: String, logger: Logger,
         factory: @escaping Factory = { keys, path throws(SystemCallError) in try VirtualKeyboard(keys: keys, uinputPath: path) }) {
        self.uinputPath = uinputPath
        self.logger = logger
        self.factory = factory
    }

    /// Makes the keyboard match `keys`: kept when it already has exactly these keys, else
    /// (re-)created; an unavailable keyboard is tried again.
    func configure(keys newKeys: Set<UInt16>) {
        if case .ready = state, newKeys == keys { return }
        sink = nil
        keys = newKeys
        guard !newKeys.isEmpty else {
            if state != .none { logger.info("virtual keyboard removed: no binding sends keys") }
            state = .none
            return
        }
        do {
            let created = try factory(newKeys, uinputPath)
            sink = created
            state = .ready(devnode: created.devnode)
            logger.info("virtual keyboard ready", metadata: [
                "device": "\(created.devnode ?? VirtualKeyboard.deviceName)",
                "keys": "\(newKeys.sorted().map(KeyNames.name(of:)).joined(separator: " "))"])
        } catch {
            state = .unavailable(error)
            logger.error("\(Self.explanation(error, path: uinputPath))")
        }
    }

    /// Sends the combinations in order; never blocks.
    func send(_ combos: [KeyCombo], gesture: String) {
        guard let sink else {
            droppedCount += combos.count
            logger.debug("keys not sent: no virtual keyboard", metadata: ["gesture": "\(gesture)"])
            return
        }
        do {
            try sink.send(combos.flatMap(\.strokes))
            sentCount += combos.count
        } catch {
            droppedCount += combos.count
            logger.error("cannot send keys", metadata: ["gesture": "\(gesture)", "error": "\(error)"])
        }
    }

    /// The one message for an unavailable keyboard: what failed, and what fixes it.
    static func explanation(_ error: SystemCallError, path: String) -> String {
        "keys bindings are disabled (everything else keeps running): \(error). " + fix(for: error, path: path)
    }

    /// What the user can do about it.
    static func fix(for error: SystemCallError, path: String) -> String {
        guard error.call == "open" else {
            return "The kernel refused the virtual keyboard; check that \(path) is the uinput device."
        }
        switch error.code {
        case ENOENT, ENODEV, ENXIO:
            return "The uinput module is not loaded: run 'modprobe uinput' and add 'uinput' to "
                + "/etc/modules-load.d/gestured.conf to load it at boot."
        case EACCES, EPERM:
            return "Install udev/70-gestured.rules (it gives the active seat's user and the input group "
                + "read-write access to \(path)) and run 'udevadm trigger --sysname-match=uinput'; the system "
                + "service needs 'DeviceAllow=\(path) rw' (systemd/gestured.service has it)."
        default:
            return "Check that \(path) exists and that this user may open it read-write."
        }
    }

    /// The `keyboard` field of the status reply.
    var statusJSON: String {
        var j = JSONLine()
        switch state {
        case .none:
            j.add("state", "none")
        case .ready(let devnode):
            j.add("state", "ready")
            if let devnode { j.add("device", devnode) }
        case .unavailable(let error):
            j.add("state", "unavailable")
            j.add("path", uinputPath)
            j.add("errno", Int(error.code))
            j.add("error", error.description)
            j.add("fix", Self.fix(for: error, path: uinputPath))
        }
        j.addRaw("keys", ProtocolLine.strings(keys.sorted().map(KeyNames.name(of:))))
        j.add("sent", sentCount)
        j.add("dropped", droppedCount)
        return j.line
    }
}
