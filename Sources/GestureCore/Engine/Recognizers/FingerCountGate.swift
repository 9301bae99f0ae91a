/// The finger-count gate the pan family shares (pan, edge pan, continuous swipe): before it begins,
/// a gesture for `minimum`...`maximum` fingers fails on more, fails or waits on fewer, and fails when
/// every finger has lifted; once begun, a pan ends when fewer than `minimum` (at least one) remain.
/// A recognizer's `Event` enum adopts it with cases of these names (enum cases satisfy the
/// requirements), so its events, and so its transition table, stay its own.
protocol FingerCountEvents {
    static func tooFewFingers(_ n: Int) -> Self
    static func tooManyFingers(_ n: Int) -> Self
    static var allLifted: Self { get }
}

extension FingerCountEvents {
    /// Before beginning: the event for `n` fingers down outside `minimum`...`maximum` (or none down),
    /// nil within the range.
    @inline(__always)
    static func outside(_ n: Int, minimum: Int, maximum: Int) -> Self? {
        if n > maximum { return .tooManyFingers(n) }
        if n == 0 { return .allLifted }
        if n < minimum { return .tooFewFingers(n) }
        return nil
    }
}

/// A pan's events once it has begun (pan, edge pan).
protocol PanEvents: FingerCountEvents {
    static var moved: Self { get }
}

extension PanEvents {
    /// Once begun: fewer than `minimum` fingers (at least one) end it, else a move changes it; nil when
    /// nothing happened.
    @inline(__always)
    static func active(_ n: Int, minimum: Int, moved: Bool) -> Self? {
        if n < max(minimum, 1) { return .tooFewFingers(n) }
        return moved ? .moved : nil
    }
}
