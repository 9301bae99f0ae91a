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
    /// Start the injected recordings when the first client subscribes, not at start-up.
    public var injectsWhenSubscribed: Bool
    /// The uinput node for the virtual keyboard of `keys:` bindings.
    public var uinputPath: String

    public init(configPath: String?, socketPath: String?, opensDevices: Bool = true,
                injectedRecordings: [String] = [], injectsWhenSubscribed: Bool = false,
                uinputPath: String = VirtualKeyboard.defaultUinputPath) {
        self.configPath = configPath
        self.socketPath = socketPath
        self.opensDevices = opensDevices
        self.injectedRecordings = injectedRecordings
        self.injectsWhenSubscribed = injectsWhenSubscribed
        self.uinputPath = uinputPath
    }
}
