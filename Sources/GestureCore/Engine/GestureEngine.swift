/// The gesture engine (SPEC §5–§7): hit-tests new touches against the region tree, delivers touches
/// to the recognizers of the hit region and its ancestors, arbitrates, and emits gesture and touch
/// events. A value: feed it frames and time; it never reads a clock.
///
/// PLACEHOLDER CONTRACT — replaced by the engine implementation.
public struct GestureEngine: Sendable {
    public private(set) var configuration: EngineConfiguration
    /// Emit `.explain` outputs for every recognizer transition.
    public var explains: Bool = false

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    /// Processes one frame (all touches of one SYN_REPORT of one device).
    public mutating func process(_ frame: TouchFrame) -> [EngineOutput] { [] }

    /// Moves time forward, firing every deadline at or before `time` (long press, tap timeouts).
    public mutating func advance(to time: Timestamp) -> [EngineOutput] { [] }

    /// The earliest time at which `advance(to:)` would do something, or nil.
    public var nextDeadline: Timestamp? { nil }

    /// The hit-test chain for a point on a surface of the given size: hit region first, then its
    /// ancestors up to the root. Empty when the point is outside the root.
    public func hitTest(_ point: Point, surfaceSize: Point, deviceKind: DeviceKind = .touchscreen) -> [String] { [] }
}
