import GestureDevices

/// How `gestured run` was started.
public struct DaemonOptions: Sendable {
    /// Config file; nil: `defaultConfigurationPath()` (looked up at start and at each reload),
    /// else the embedded default.
    public var configPath: String?
    /// Overrides the config's socket path.
    public var socketPath: String?
    /// false: open no input device (socket-only; tests).
    public var opensDevices: Bool
    /// Recordings fed through the live loop at their recorded pace, as extra devices (`--inject`).
    public var injectedRecordings: [String]
    /// Start the injected recordings when a client subscribes (or records, or attaches regions),
    /// not at start-up.
    public var injectsWhenSubscribed: Bool
    /// With `injectsWhenSubscribed`: start at this many such requests, from all clients together
    /// (`--inject-after N`: several clients set up before the first touch).
    public var injectAfterRequests: Int
    /// The uinput node for the virtual keyboard of `keys:` bindings.
    public var uinputPath: String
    /// Where libinput's device quirks come from (`--quirks`, `--no-quirks`; docs/input.md, "Device quirks").
    public var quirks: QuirksLoading.Source = .system

    public init(configPath: String?, socketPath: String?, opensDevices: Bool = true,
                injectedRecordings: [String] = [], injectsWhenSubscribed: Bool = false, injectAfterRequests: Int = 1,
                uinputPath: String = VirtualKeyboard.defaultUinputPath) {
        self.configPath = configPath
        self.socketPath = socketPath
        self.opensDevices = opensDevices
        self.injectedRecordings = injectedRecordings
        self.injectsWhenSubscribed = injectsWhenSubscribed
        self.injectAfterRequests = max(1, injectAfterRequests)
        self.uinputPath = uinputPath
    }
}
