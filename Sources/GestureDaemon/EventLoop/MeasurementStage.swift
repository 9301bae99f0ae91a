/// How much of a frame's path the daemon runs (`Daemon.read`, the hub's streamed send). Always
/// `full`, except in the measurement builds of scripts/profiling/vm-cpu-stages (`-DCPU_STAGE_READ_ONLY`,
/// `-DCPU_STAGE_NO_OUTPUT`, `-DCPU_STAGE_NO_SEND`) and of scripts/profiling/vm-hop (`-DCPU_STAGE_FORWARD_ONLY`),
/// which find where the daemon's CPU per event and forwarding delay go.
/// A constant: every build type-checks every stage, and the optimizer keeps only the one chosen.
enum MeasurementStage {
    /// Events are read from the device and dropped.
    case readOnly
    /// Events are read and a forwarded device's are written to its clone as they came, with no
    /// engine: the daemon's loop as the least forwarding hop (`scripts/profiling/vm-hop`).
    case forwardOnly
    /// The engine runs; what the frames make is not published (a deadline's or a removal's few
    /// lines still are).
    case noOutput
    /// Everything but the `send` of streamed lines: they are encoded and fanned out, and dropped
    /// where the socket would have taken them (replies still go out).
    case noSend
    /// The daemon users run.
    case full

    static var current: MeasurementStage {
        #if CPU_STAGE_READ_ONLY
        .readOnly
        #elseif CPU_STAGE_FORWARD_ONLY
        .forwardOnly
        #elseif CPU_STAGE_NO_OUTPUT
        .noOutput
        #elseif CPU_STAGE_NO_SEND
        .noSend
        #else
        .full
        #endif
    }
}
