extension EngineLane {
    // MARK: - Arbitration

    /// The single place where recognizer states change.
    @discardableResult
    mutating func transition(_ r: Int, _ event: RecognizerEvent, _ reason: Reason,
                                     _ out: inout [EngineOutput]) -> Bool {
        let from = slots[r].state
        guard let to = RecognizerStateMachine.transition(from: from, on: event, discrete: slots[r].discrete) else {
            illegalTransitions += 1
            return false
        }
        slots[r].state = to
        if to == .failed || event == .reset, slots[r].pending != nil {
            endHold(r)
            slots[r].pending = nil
            slots[r].settleUntil = nil
            pendingCount -= 1
        }
        if explains {
            let text = reason.text(name: { [slots] in slots[$0].id })
            out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: from, to: to,
                                             time: now, reason: text, routine: reason.isRoutine)))
            // A recognizer that decides only once its fingers lifted: name who waited for it so long.
            if to == .failed && slots[r].active <= 0 { explainWaitsPastTheSequence(on: r, &out) }
        }
        if to != .possible && to != .failed {
            var e = GestureEvent(gestureName: slots[r].name, kind: slots[r].kind, state: to, time: now,
                                 deviceName: slots[r].deviceName, regionName: slots[r].regionName, fingers: 0)
            logics.describe(r, &e, at: now)
            if slots[r].touchTypes != .finger { e.pressure = penPressure(r) }
            out.append(.gesture(consume e))
        }
        return true
    }

    enum Requirement { case clear, waiting, blocked(Int) }

    func requirement(_ r: Int) -> Requirement {
        if deviceKind == .touchpad && slots[r].isSingleTap && holdsTouchDown(r) { return .waiting }
        if let until = slots[r].settleUntil, now < until, fingerMayJoin(r),
           !settledByMotion(r) { return .waiting }
        let required = heldBack(by: slots[r].requires)
        guard case .clear = required else { return required }
        // Out of line: with no keeping region (the config's tree alone) the list is always empty,
        // and `requirement` stays small enough to be inlined where it is asked.
        if !slots[r].keptWaits.isEmpty { return keptRequirement(r) }
        return .clear
    }

    /// `requirement`'s answer for the recognizers `r` waits for because a keeping region holds its
    /// touches (EngineLane+Keeping.swift).
    @inline(never)
    func keptRequirement(_ r: Int) -> Requirement { heldBack(by: slots[r].keptWaits) }

    /// What the recognizers `others` mean for one that waits for them: blocked by the first that has
    /// succeeded, waiting while one is possible with touches down, clear when each has failed or has no
    /// touch.
    @inline(__always)
    func heldBack(by others: [Int]) -> Requirement {
        for q in others {
            switch slots[q].state {
            case .failed: continue
            case .possible:
                if slots[q].touches.isEmpty { continue }
                return .waiting
            default: return .blocked(q)
            }
        }
        return .clear
    }

    func requiredSucceeded(_ q: Int) -> Reason {
        slots[q].discrete ? .requiredRecognized(q) : .requiredBegan(q)
    }

    /// Whether a required recognizer that is still undecided can decide later (has touches down, a
    /// timer, or is not itself waiting); false for waits that could only deadlock (a require-to-fail cycle).
    func requirementsCanResolve(_ r: Int) -> Bool {
        for q in slots[r].requires where slots[q].state == .possible && !slots[q].touches.isEmpty {
            if slots[q].active > 0 || logics.deadline(q) != nil || slots[q].pending == nil { return true }
        }
        for q in slots[r].keptWaits where slots[q].state == .possible && !slots[q].touches.isEmpty {
            if slots[q].active > 0 || logics.deadline(q) != nil || slots[q].pending == nil { return true }
        }
        return false
    }

    func canPrevent(_ r: Int, _ o: Int) -> Bool {
        if simultaneous[r * slots.count + o] { return false }
        // A tap never prevents a tap that needs more taps.
        if slots[r].kind == .tap && slots[o].kind == .tap && slots[o].taps > slots[r].taps { return false }
        return true
    }

    func shareTouches(_ a: Int, _ b: Int) -> Bool {
        for t in slots[a].touches where slots[b].touches.contains(t) { return true }
        return false
    }

    @inline(__always)
    mutating func apply(_ out: inout [EngineOutput]) {
        successes.clearKeepingCapacity()
        for k in proposals.indices {
            let (r, p) = proposals[k]
            switch p {
            case .fail(let reason):
                if slots[r].state == .possible { transition(r, .fail, reason, &out) }
            case .cancel(let reason):
                if slots[r].state.isInProgress { transition(r, .cancel, reason, &out) }
            case .bug(let reason):
                bugCount += 1
                lastBug = "gesture '\(slots[r].id)': " + reason.text(name: { [slots] in slots[$0].id })
                if slots[r].state == .possible { transition(r, .fail, reason, &out) }
                if slots[r].state.isInProgress { transition(r, .cancel, reason, &out) }
            case .change:
                if slots[r].state.isInProgress { transition(r, .change, .moving, &out) }
            case .end:
                if slots[r].state.isInProgress { transition(r, .end, .lifted, &out) }
            case .recognize, .begin:
                successes.append((r, p, successes.count))
            case .none:
                break
            }
        }
        if successes.count > 1 {
            // Taps needing more taps decide first, so a double tap excludes the single tap at its second
            // lift; otherwise delivery order (nearest region first).
            let s = slots
            successes.sort { a, b in
                let ka = s[a.0].kind == .tap ? s[a.0].taps : 0
                let kb = s[b.0].kind == .tap ? s[b.0].taps : 0
                return ka != kb ? ka > kb : a.2 < b.2
            }
        }
        var k = 0
        while k < successes.count {
            let (r, p, _) = successes[k]
            k += 1
            guard slots[r].state == .possible, slots[r].pending == nil else { continue }
            if fingerMayJoin(r) {
                let until = slots[r].sequenceStart.adding(milliseconds: slots[r].settleTime)
                if now < until && !settledByMotion(r) { slots[r].settleUntil = until }
            }
            switch requirement(r) {
            case .clear:
                succeed(r, p, &out)
            case .waiting:
                slots[r].pending = p
                pendingCount += 1
                heldSuccesses += 1
                slots[r].pendingOrder = heldSuccesses
                if explains && !slots[r].keptWaits.isEmpty { explainKeptWait(r, &out) }
                _ = boundHold(r, &out)
            case .blocked(let q):
                transition(r, .fail, requiredSucceeded(q), &out)
            }
        }
        resolvePending(&out)
    }

    mutating func succeed(_ r: Int, _ p: Proposal, _ out: inout [EngineOutput]) {
        let reason: Reason
        let event: RecognizerEvent
        switch p {
        case .recognize(let why):
            event = .recognize
            reason = why
        case .begin(let why):
            event = .begin
            reason = why
        default: return
        }
        if slots[r].pending != nil {
            endHold(r)
            slots[r].pending = nil
            pendingCount -= 1
        }
        slots[r].settleUntil = nil
        if event == .begin, let why = logics.disqualification(r) {
            // A rotation decides on (it may still begin when its turn is wide); the others fail.
            if let decidingOn = logics.withdrawBegin(r, at: now) {
                drainTrace(r, &out)
                if explains {
                    let text = decidingOn.text(name: { [slots] in slots[$0].id })
                    out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: .possible,
                                                     to: .possible, time: now, reason: text)))
                }
                return
            }
            transition(r, .fail, why, &out)
            return
        }
        if deviceKind == .touchpad && slots[r].kind == .tap { releaseFingersAfterTap(r, &out) }
        guard transition(r, event, reason, &out) else { return }
        // Recognizers waiting for this one to fail now fail.
        for w in slots[r].requiredBy where slots[w].state == .possible && !slots[w].touches.isEmpty {
            transition(w, .fail, requiredSucceeded(r), &out)
        }
        // Exclusion.
        for o in slots.indices where o != r {
            let st = slots[o].state
            guard st == .possible || st.isInProgress, !slots[o].touches.isEmpty, shareTouches(r, o),
                  canPrevent(r, o) else { continue }
            transition(o, st == .possible ? .fail : .cancel, .excludedBy(r), &out)
        }
        if slots[r].cancelsTouches { cancelTouches(of: r, &out) }
        if forwarding.enabled && slots[r].claimsForwarded { withdrawForwarded(claimedBy: r, &out) }
        if !slots[r].discrete && slots[r].pendingEnded {
            slots[r].pendingEnded = false
            transition(r, .end, .lifted, &out)
        }
    }

    /// Decides the held successes (`Slot.pending`) whose required recognizers have decided.
    @inline(__always)
    mutating func resolvePending(_ out: inout [EngineOutput]) {
        // Most frames hold no success: decided here without a call.
        if pendingCount > 0 { resolveHeldSuccesses(&out) }
    }

    private mutating func resolveHeldSuccesses(_ out: inout [EngineOutput]) {
        var changed = true
        while changed {
            changed = false
            // In the order the successes were proposed (see `Slot.pendingOrder`).
            heldScratch.clearKeepingCapacity()
            for r in slots.indices where slots[r].pending != nil { heldScratch.append(r) }
            heldScratch.sort { slots[$0].pendingOrder < slots[$1].pendingOrder }
            let held = heldScratch
            for r in held {
                guard slots[r].state == .possible, let p = slots[r].pending else { continue }
                switch requirement(r) {
                case .clear:
                    succeed(r, p, &out)
                    changed = true
                case .blocked(let q):
                    transition(r, .fail, requiredSucceeded(q), &out)
                    changed = true
                case .waiting:
                    if boundHold(r, &out) { changed = true }
                }
            }
        }
    }

    /// Settling: whether a finger may still join `r`'s gesture and make it another recognizer's — a
    /// recognizer that shares its touches, is still possible, would be excluded by it, and needs more
    /// fingers than `r` has down. While so (up to `settleTime` after its first finger landed), `r`'s
    /// success waits; a finger that joins meanwhile and takes `r` past its most fingers fails it.
    func fingerMayJoin(_ r: Int) -> Bool {
        let fingers = slots[r].active
        guard fingers > 0 else { return false }
        for o in slots.indices where o != r && slots[o].state == .possible && !slots[o].touches.isEmpty {
            if slots[o].fingerRange.lowerBound > fingers && shareTouches(r, o) && canPrevent(r, o) { return true }
        }
        return false
    }

    /// Whether a rival reading the same fingers' motion differently (a multi-finger pan against a pinch
    /// or rotation, a pinch against a multi-finger pan or rotation) is still possible on `r`'s touches
    /// and would be excluded by `r`: then `r` decides by the fingers' motion.
    func isContested(_ r: Int) -> Bool {
        let kind = slots[r].kind
        for o in slots.indices where o != r && slots[o].state == .possible && !slots[o].touches.isEmpty {
            if isRival(o, of: r, kind) && !waitsForFailure(o, of: r) { return true }
        }
        return false
    }

    /// Whether `o` reads `r`'s fingers' motion differently and would be excluded by it (`kind`: `r`'s).
    @inline(__always)
    func isRival(_ o: Int, of r: Int, _ kind: RecognizerKind) -> Bool {
        let other = slots[o].kind
        let rival = switch kind {
        case .pan: other == .pinch || other == .rotation
        case .pinch: other == .rotation || (other == .pan && slots[o].fingerRange.upperBound >= 2)
        default: false
        }
        return rival && shareTouches(r, o) && canPrevent(r, o)
    }

    /// Whether `o` must wait for `r` to fail before it may succeed (`require-to-fail`, or a keeping
    /// region's recognizer `r` that the ancestor `o` defers to): such an `o` is no rival of `r`. If
    /// `r` held its success for `o` while `o` waits for `r`, neither would ever decide while the
    /// fingers are down (a window's pinch and the screen's rotation: UIKit gives the subview its pinch).
    func waitsForFailure(_ o: Int, of r: Int) -> Bool {
        slots[o].requires.contains(r) || slots[o].keptWaits.contains(r)
    }
}
