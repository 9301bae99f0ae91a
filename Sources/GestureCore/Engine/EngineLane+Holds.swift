/// No endless holds (docs/recognizers.md): a recognizer that decides only on its fingers' motion
/// (a pan, pinch, rotation, edge pan or continuous swipe: no timer of its own) may hold a success
/// that waits for it to fail (`require-to-fail`, or a window keeping its gestures) for at most
/// `holdLimit` ms once the wait is past settling; then it fails ("undecided after holding
/// two-finger-pan for 150 ms: gives way, two-finger-pan goes on") and the held success goes on. A
/// recognizer with a timer (a double tap, a discrete swipe, a long press) decides by it and is
/// waited for as UIKit waits. The same bound holds a forwarded touch held back from the desktop
/// (docs/forwarding.md, "No endless holds"): its undecided holder fails `holdLimit` ms after the
/// touch was held or the holder's settling ended, whichever is later, and the touch is released.
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
        return now < until && fingerMayJoin(r) && !settledByMotion(r)
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

    // MARK: - Forwarded touches held back from the desktop

    /// When the bound's clock starts for forwarded touch `t` held by `q` (nil: not yet): once `q`'s
    /// settling is over (a finger may still join before that, and the gesture is decided again) and
    /// - on a touchscreen, the touch is held: the desktop's own gestures on a resting finger (a long
    ///   press) need the touch;
    /// - on a touchpad, `q`'s fingers have moved far enough to end its settling (`settledByMotion`:
    ///   libinput's decision about them, or the settle distance): resting fingers give the desktop
    ///   nothing to do (no long press there), and real three-finger swipes rest 300 ms and more
    ///   before they move; moving ones are a scroll or a swipe the desktop misses. That motion ends
    ///   the settling, so the clock starts there.
    func forwardHoldStart(_ t: ForwardedTouch, by q: Int) -> Timestamp? {
        if forwarding.isTouchpad { return t.movingSince }
        let held = t.heldAt
        let settled = slots[q].sequenceStart.adding(milliseconds: slots[q].settleTime)
        return max(held, settled)
    }

    /// Touchpads, at the end of a step: held touch `k`'s holder `q`'s fingers have moved far enough
    /// to end its settling (`settledByMotion`).
    mutating func noteHeldMotion(_ k: Int, _ q: Int) {
        guard forwarding.touches[k].movingSince == nil, settledByMotion(q) else { return }
        forwarding.touches[k].movingSince = now
    }

    /// The undecided recognizer holding forwarded touch `t` back (held, perhaps lifted while other
    /// fingers are down), or -1.
    func undecidedForwardHolder(of t: ForwardedTouch) -> Int {
        guard t.state == .held else { return -1 }
        let q = holder(of: t)
        return q >= 0 && holdsUndecided(q) ? q : -1
    }

    /// The earliest time a forwarded touch's hold reaches `holdLimit`, or nil.
    func forwardHoldDeadline() -> Timestamp? {
        guard holdLimit.isFinite else { return nil }
        var best: Timestamp?
        for t in forwarding.touches {
            let q = undecidedForwardHolder(of: t)
            guard q >= 0, let start = forwardHoldStart(t, by: q) else { continue }
            let d = start.adding(milliseconds: holdLimit)
            if best == nil || d < best! { best = d }
        }
        return best
    }

    /// At `forwardHoldDeadline`: each undecided recognizer that has held a forwarded touch for
    /// `holdLimit` fails; the step's end releases the touch. True when one failed.
    mutating func boundForwardHolds(_ out: inout [EngineOutput]) -> Bool {
        var failed = false
        for k in forwarding.touches.indices {
            let t = forwarding.touches[k]
            let q = undecidedForwardHolder(of: t)
            guard q >= 0, let start = forwardHoldStart(t, by: q) else { continue }
            let ms = now.milliseconds(since: start)
            guard ms >= holdLimit else { continue }
            transition(q, .fail, .heldTouchTooLong(t.id, ms), &out)
            failed = true
        }
        return failed
    }

    /// A held forwarded touch is released or withdrawn: its hold past settling counts towards
    /// `longestHold`.
    mutating func endForwardHold(_ t: ForwardedTouch) {
        guard t.heldBy >= 0, let start = forwardHoldStart(t, by: t.heldBy), start < now else { return }
        longestHold = max(longestHold, now.milliseconds(since: start))
    }
}
