/// A point in time, in microseconds, taken from event timestamps (never from a clock inside the core).
public struct Timestamp: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(microseconds: Int64) { self.rawValue = microseconds }
    public init(seconds: Int64, microseconds: Int64) { self.rawValue = seconds * 1_000_000 + microseconds }
    public init(seconds: Double) { self.rawValue = Int64((seconds * 1_000_000).rounded()) }

    public static let zero = Timestamp(microseconds: 0)
    /// Long before any event ("not yet"): any time's `milliseconds(since:)` it is huge, never an overflow.
    public static let never = Timestamp(rawValue: Int64.min / 2)
    public var microseconds: Int64 { rawValue }
    public var seconds: Double { Double(rawValue) / 1_000_000 }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    /// `t + ms(500)`: a later time by a number of milliseconds.
    public func adding(milliseconds: Double) -> Timestamp {
        Timestamp(microseconds: rawValue + Int64((milliseconds * 1000).rounded()))
    }
    /// Milliseconds from `earlier` to `self`.
    public func milliseconds(since earlier: Timestamp) -> Double { Double(rawValue - earlier.rawValue) / 1000 }
    public var description: String { JSONLine.number(seconds) }
}

/// One evdev event (`struct input_event`), with its kernel timestamp.
public struct RawEvent: Hashable, Sendable {
    public var time: Timestamp
    public var type: EventType
    public var code: EventCode
    public var value: Int32

    public init(time: Timestamp, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    public var isSynReport: Bool { type == .syn && code == .synReport }
}
