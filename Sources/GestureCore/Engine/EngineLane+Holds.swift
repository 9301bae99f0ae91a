/// No endless holds (docs/recognizers.md): a recognizer that decides only on its fingers' motion
/// (a pan, pinch, rotation, edge pan or continuous swipe: no timer of its own) may hold a success
/// that waits for it to fail (`require-to-fail`, or a window keeping its gestures) for at most
/// `holdLimit` ms once the wait is past settling; then it fails ("undecided after holding
/// two-finger-pan for 150 ms: gives way, two-finger-pan goes on") and the held success goes on. A
/// recognizer with a timer (a double tap, a discrete swipe, a long press) decides by it and is
/// waited for as UIKit waits.
extension EngineLane {
    /// The longest a recognizer that cannot decide may hold another's success, ms: on a touchscreen
    /// 150 ms; on a touchpad the same, libinput's settle time (it holds a scroll no longer while it
    /// tells a scroll from a pinch).
    static func holdLimit(for kind: DeviceKind) -> Double {
        switch kind {
        case .touchpad: 150
        default: 150
        }
    }

    /// Whether `r`'s held success is still waiting out its settle time (a finger may still join).
    func isSettling(_ r: Int) -> Bool {
        guard let until = slots[r].settleUntil else { return false }
        return now < until && fingerMayJoin(r) && settleMotion(r) < slots[r].settleDistance
    }

    /// The recognizer `r`'s held success waits for that can decide only on its fingers' motion
    /// (possible with fingers down, no timer, not itself waiting with a success), or -1.
    func undecidedHolder(of r: Int) -> Int {
        for q in slots[r].requires where holdsUndecided(q) { return q }
        for q in slots[r].keptWaits where holdsUndecided(q) { return q }
        return -1
    }

    private func holdsUndecided(_ q: Int) -> Bool {
        slots[q].state == .possible && slots[q].active > 0 && slots[q].pending == nil && logics.deadline(q) == nil
    }

    /// When `r`'s hold reaches `holdLimit` (nil when it is not held by an undecided recognizer).
    func holdDeadline(_ r: Int) -> Timestamp? {
        guard holdLimit.isFinite, let since = slots[r].heldSince, undecidedHolder(of: r) >= 0 else { return nil }
        return since.adding(milliseconds: holdLimit)
    }

    /// `r`'s success is held (`requirement` is `.waiting`): once past settling, starts the clock of a
    /// hold by an undecided recognizer; at `holdLimit`, that recognizer fails. True when one failed.
    mutating func boundHold(_ r: Int, _ out: inout [EngineOutput]) -> Bool {
        guard slots[r].pending != nil, !isSettling(r) else { return false }
        let q = undecidedHolder(of: r)
        guard q >= 0 else { return false }
        guard let since = slots[r].heldSince else {
            slots[r].heldSince = now
            return false
        }
        let ms = now.milliseconds(since: since)
        guard ms >= holdLimit else { return false }
        transition(q, .fail, .heldRivalTooLong(r, ms), &out)
        return true
    }

    /// `r`'s held success is released or dropped: the hold's length counts towards `longestHold`.
    mutating func endHold(_ r: Int) {
        guard let since = slots[r].heldSince else { return }
        longestHold = max(longestHold, now.milliseconds(since: since))
        slots[r].heldSince = nil
    }
}
