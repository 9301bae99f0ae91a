/// Turns one device's raw evdev events into touch frames: slot tracking (protocol B), contact
/// lists (protocol A), single-touch, BTN_TOOL_* finger counts, palms, hover, SYN_DROPPED,
/// surface mapping and tap counts. One per device. Pure: time comes from the events.
///
/// PLACEHOLDER CONTRACT — replaced by the input pipeline implementation.
public struct FrameAssembler: Sendable {
    public let device: DeviceRef
    public let description: DeviceDescription
    public let surface: SurfaceConfiguration

    /// `touchIDs` hands out pipeline-wide unique touch ids.
    public init(description: DeviceDescription, device: DeviceRef, surface: SurfaceConfiguration = .init()) {
        self.description = description
        self.device = device
        self.surface = surface
    }

    /// Feeds one event; returns a frame at each SYN_REPORT that changed something.
    public mutating func feed(_ event: RawEvent, ids: inout TouchIDGenerator) -> TouchFrame? {
        nil
    }

    /// Cancels every open touch (device removed, or end of a stream cut short); nil when none is open.
    public mutating func cancelAll(at time: Timestamp) -> TouchFrame? {
        nil
    }

    /// End of input: completes a pending frame that lacked its SYN_REPORT, then cancels what is still open.
    public mutating func finish(at time: Timestamp, ids: inout TouchIDGenerator) -> [TouchFrame] {
        []
    }
}

/// Hands out touch ids unique across every device of a pipeline.
public struct TouchIDGenerator: Sendable {
    private var next: UInt64 = 1
    public init() {}
    public mutating func make() -> TouchID {
        defer { next += 1 }
        return TouchID(next)
    }
}
