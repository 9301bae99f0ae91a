/// Waits between attempts to reach something that went away: `initial`, doubling up to `maximum`,
/// back to `initial` after a success. Microseconds.
public struct Backoff: Equatable, Sendable {
    public let initial: Int64
    public let maximum: Int64
    public private(set) var next: Int64

    public init(initial: Int64 = 100_000, maximum: Int64 = 5_000_000) {
        self.initial = initial
        self.maximum = maximum
        self.next = initial
    }

    /// The wait before the next attempt; the one after doubles.
    public mutating func failed() -> Int64 {
        let wait = next
        next = min(next * 2, maximum)
        return wait
    }

    public mutating func succeeded() { next = initial }
}
