/// Hands out touch ids unique across every device of a pipeline.
public struct TouchIDGenerator: Sendable {
    private var next: UInt64 = 1
    public init() {}
    public mutating func make() -> TouchID {
        defer { next += 1 }
        return TouchID(next)
    }
}
