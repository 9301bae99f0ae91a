import GestureCore

/// Which devices a rule applies to. Every field given must match.
public struct DeviceMatch: Hashable, Sendable {
    public var kind: DeviceKind?
    /// fnmatch-style glob on the device name.
    public var nameGlob: String?
    public var vendor: UInt16?
    public var product: UInt16?
    /// Device node path (/dev/input/eventN) or a /dev/input/by-id link target.
    public var path: String?
    public init(kind: DeviceKind? = nil, nameGlob: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil,
                path: String? = nil) {
        self.kind = kind
        self.nameGlob = nameGlob
        self.vendor = vendor
        self.product = product
        self.path = path
    }
}

/// Which devices the daemon opens.
public struct DeviceSelection: Hashable, Sendable {
    /// Empty: every touchscreen, touchpad and tablet finger interface.
    public var include: [DeviceMatch]
    public var ignore: [DeviceMatch]
    /// EVIOCGRAB the devices (no other client sees their events).
    public var grab: Bool
    /// Take the devices (EVIOCGRAB) and give the desktop a clone of each with the touches no gesture
    /// takes (docs/forwarding.md). Wins over `grab`.
    public var forward: Bool
    public init(include: [DeviceMatch] = [], ignore: [DeviceMatch] = [], grab: Bool = false, forward: Bool = false) {
        self.include = include
        self.ignore = ignore
        self.grab = grab
        self.forward = forward
    }
}

/// A surface mapping for the devices a match selects; the first matching rule wins.
public struct SurfaceRule: Hashable, Sendable {
    public var match: DeviceMatch
    public var surface: SurfaceConfiguration
    /// The desktop output a touchscreen covers (docs/desktop.md); nil: the default.
    public var output: String?
    public init(match: DeviceMatch, surface: SurfaceConfiguration, output: String? = nil) {
        self.match = match
        self.surface = surface
        self.output = output
    }
}

/// What a gesture makes happen (docs/configuration.md#bindings): a shell command, key
/// combinations sent through the daemon's virtual keyboard, or both; once per state reached, or
/// once per step of a continuous gesture's progress (`every`).
public struct Binding: Hashable, Sendable {
    public var gesture: String
    /// States that trigger it; empty means recognized / ended (the gesture's completion).
    /// A stepped binding (`every`) ignores them: it fires on progress.
    public var states: Set<GestureState>
    /// A `/bin/sh -c` command line, or nil for a keys-only binding.
    public var command: String?
    /// Key combinations sent in order on every trigger (every step, for a stepped binding).
    public var keys: [KeyCombo]
    /// Stepped bindings only: combinations sent on a step up (+1) / down (-1).
    public var keysIncrease: [KeyCombo]
    public var keysDecrease: [KeyCombo]
    /// Fire once per step of progress instead of per state.
    public var every: StepMeasure?
    /// Least time between two runs of this binding, ms (0: none). Triggers within it are dropped.
    public var cooldown: Double
    /// Kill the command after this many ms.
    public var timeout: Double
    /// What it does to the window of its gesture (docs/desktop.md), through the session bridge.
    public var action: WindowAction? = nil

    public init(gesture: String, states: Set<GestureState> = [], command: String? = nil, keys: [KeyCombo] = [],
                keysIncrease: [KeyCombo] = [], keysDecrease: [KeyCombo] = [], every: StepMeasure? = nil,
                cooldown: Double = 0, timeout: Double = 10_000) {
        self.gesture = gesture
        self.states = states
        self.command = command
        self.keys = keys
        self.keysIncrease = keysIncrease
        self.keysDecrease = keysDecrease
        self.every = every
        self.cooldown = cooldown
        self.timeout = timeout
    }

    /// Every key code this binding may send.
    public var keyCodes: Set<UInt16> {
        Set((keys + keysIncrease + keysDecrease).flatMap(\.codes))
    }

    /// Whether it sends keys at all.
    public var sendsKeys: Bool { !keys.isEmpty || !keysIncrease.isEmpty || !keysDecrease.isEmpty }
}

/// One key combination: kernel EV_KEY codes pressed in this order, then released in reverse.
public struct KeyCombo: Hashable, Sendable {
    public var codes: [UInt16]
    public init(_ codes: [UInt16]) { self.codes = codes }
}

/// How a stepped binding measures a continuous gesture's progress, from where the fingers landed.
public enum StepMeasure: Hashable, Sendable {
    /// Pan / edge-pan translation: mm per step, along `axis` (nil: the dominant axis).
    case distance(mm: Double, axis: StepAxis?)
    /// Pinch scale: each step multiplies (or divides) the scale by `1 + ratio` (0.1 for `10%`).
    case scale(ratio: Double)
    /// Rotation: degrees per step.
    case angle(degrees: Double)
}

public enum StepAxis: String, Hashable, Sendable, CaseIterable {
    case x, y
}

public struct SocketSettings: Hashable, Sendable {
    /// The socket file; nil (the default): the daemon's lookup by user (docs/daemon.md, "The
    /// socket path").
    public var path: String?
    /// File mode of the socket file, e.g. 0o660.
    public var mode: UInt32
    public var owner: String?
    public var group: String?
    /// Uids allowed to connect besides root and the daemon's own uid; empty: anyone who can open the file.
    public var allowedUIDs: [UInt32]
    /// Lines queued per client before it is considered stuck.
    public var clientQueueLimit: Int
    /// Regions one client may have attached at a time (`attach`, docs/protocol.md).
    public var clientRegionLimit: Int = SocketSettings.defaultClientRegionLimit
    /// Gestures one client may have attached at a time.
    public var clientGestureLimit: Int = SocketSettings.defaultClientGestureLimit
    public static let defaultClientRegionLimit = 64
    public static let defaultClientGestureLimit = 64
    public init(path: String? = nil, mode: UInt32 = 0o660, owner: String? = nil,
                group: String? = nil, allowedUIDs: [UInt32] = [], clientQueueLimit: Int = 1024) {
        self.path = path
        self.mode = mode
        self.owner = owner
        self.group = group
        self.allowedUIDs = allowedUIDs
        self.clientQueueLimit = clientQueueLimit
    }
}

/// The whole configuration file.
public struct Configuration: Hashable, Sendable {
    public var engine: EngineConfiguration
    public var devices: DeviceSelection
    public var surfaces: [SurfaceRule]
    public var bindings: [Binding]
    /// At most this many binding commands run at once; more wait in a queue.
    public var bindingConcurrency: Int
    public var socket: SocketSettings
    /// Where it was read from, for errors found after loading (StartupCheck). Not compared.
    public var origin: ConfigOrigin = ConfigOrigin(file: "")

    /// Default of `bindingConcurrency`.
    public static let defaultBindingConcurrency = 4

    /// Every key code the bindings may send: exactly the keys of the daemon's virtual keyboard.
    public var virtualKeys: Set<UInt16> {
        bindings.reduce(into: Set<UInt16>()) { $0.formUnion($1.keyCodes) }
    }

    public init(engine: EngineConfiguration, devices: DeviceSelection = .init(), surfaces: [SurfaceRule] = [],
                bindings: [Binding] = [], bindingConcurrency: Int = Configuration.defaultBindingConcurrency,
                socket: SocketSettings = .init()) {
        self.engine = engine
        self.devices = devices
        self.surfaces = surfaces
        self.bindings = bindings
        self.bindingConcurrency = bindingConcurrency
        self.socket = socket
    }
}

/// The file a configuration was read from and where some of its settings were written, so a
/// problem found after loading (a socket group that does not exist) names file:line:column too.
/// Where a setting was written is not what it configures: two origins always compare equal, so
/// the same settings read from two files are the same configuration.
public struct ConfigOrigin: Hashable, Sendable {
    public var file: String
    /// Setting path (`socket.group`) → the line and column of its value.
    public var places: [String: (line: Int, column: Int)] = [:]

    public init(file: String) {
        self.file = file
    }

    /// An error at a setting's value, or at the file when the setting was not written.
    public func error(at setting: String, _ message: String) -> ConfigError {
        let place = places[setting]
        return ConfigError(file: file, line: place?.line ?? 0, column: place?.column ?? 0, message: message)
    }

    public static func == (_: ConfigOrigin, _: ConfigOrigin) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// A config error: file, line, column, what is wrong.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    /// "file:line:column: message", or "file: message" when there is no position (line 0).
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}

public struct ConfigErrors: Error, CustomStringConvertible, Sendable, Equatable {
    public var errors: [ConfigError]
    public init(errors: [ConfigError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
