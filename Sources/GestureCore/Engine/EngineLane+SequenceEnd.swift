extension EngineLane {
    // MARK: - Time and sequence end

    mutating func fireDeadlines(upTo time: Timestamp, _ out: inout [EngineOutput]) {
        // The common case, nothing due, decided here without a call.
        while let deadline = cachedDeadline, deadline <= time, fireOne(upTo: time, &out) {}
    }

    @inline(__always)
    mutating func recomputeDeadline() {
        var best: Timestamp?
        for r in slots.indices where slots[r].state == .possible && !slots[r].touches.isEmpty {
            let d = slots[r].pending == nil ? logics.deadline(r) : slots[r].settleUntil ?? holdDeadline(r)
            if let d, best == nil || d < best! { best = d }
        }
        if forwarding.enabled, let d = forwardHoldDeadline(), best == nil || d < best! { best = d }
        cachedDeadline = best
    }

    /// Resets recognizers whose sequence is over, releases held touch events, forgets finished touches.
    @inline(__always)
    mutating func finishStep(_ out: inout [EngineOutput]) {
        // Only when some recognizer holds touches that have all lifted (`liftedSlots`): most frames
        // have none, and then the scan would find nothing.
        if liftedSlots { endLiftedSequences(&out) }
        flushHeld(&out)
        if forwarding.enabled { decideForwarded(&out) }
        var i = records.count - 1
        while i >= 0 {
            // The fields in place: copying the record would copy its touch and retain its arrays.
            if records[i].terminal
                && (records[i].closed || !records[i].publishes || (!records[i].beganHeld && !records[i].endedHeld)) {
                records.swapAt(i, records.count - 1)
                records.removeLast()
            }
            i -= 1
        }
        recomputeDeadline()
    }

    /// `finishStep`'s part for recognizers whose touches have all lifted: each either waits (a timer,
    /// a required recognizer that can still decide) or ends its sequence.
    private mutating func endLiftedSequences(_ out: inout [EngineOutput]) {
        var changed = true
        while changed {
            changed = false
            liftedSlots = false
            for r in slots.indices where !slots[r].touches.isEmpty && slots[r].active <= 0 {
                if slots[r].state == .possible {
                    // Still deciding: waiting for another tap or a timer, or for a required recognizer
                    // that can still decide. Anything else has nothing left to wait for.
                    liftedSlots = true
                    if logics.deadline(r) != nil { continue }
                    if slots[r].pending != nil {
                        guard case .waiting = requirement(r) else {
                            changed = true  // decided: resolvePending below applies it
                            continue
                        }
                        if requirementsCanResolve(r) { continue }
                        waitCycles += 1
                        if explains { explainWait(r, r, "gave up when the fingers lifted: what it waits for waits too (a cycle of waits)", &out) }
                    }
                    transition(r, .fail, .sequenceEnded, &out)
                    changed = true
                    continue
                }
                if slots[r].state.isInProgress { transition(r, .cancel, .sequenceEnded, &out) }
                transition(r, .reset, .sequenceEnded, &out)
                slots[r].touches.clearKeepingCapacity()
                slots[r].active = 0
                slots[r].device = nil
                slots[r].pendingEnded = false
                slots[r].settleUntil = nil
                logics.reset(r)
            }
            if changed { resolvePending(&out) }
        }
    }

    /// Names the waits that lasted past the sequence: every recognizer whose success is held for `q`,
    /// which decides only now that the fingers lifted (docs/recognizers.md, "Arbitration" 8).
    mutating func explainWaitsPastTheSequence(on q: Int, _ out: inout [EngineOutput]) {
        for w in slots.indices where w != q && slots[w].pending != nil && slots[w].state == .possible
            && (slots[w].requires.contains(q) || slots[w].keptWaits.contains(q)) {
            let ms = Reason.fmt(now.milliseconds(since: slots[w].sequenceStart))
            explainWait(w, q, "waited until the fingers lifted (\(ms) ms) for \(slots[q].regionID)'s \(slots[q].id) to fail", &out)
        }
    }

    private mutating func explainWait(_ w: Int, _ q: Int, _ text: String, _ out: inout [EngineOutput]) {
        out.append(.explain(ExplainEvent(gesture: slots[w].id, region: slots[w].regionID, from: .possible, to: .possible,
                                         time: now, reason: text)))
    }

    /// Contacts the hygiene found resting leave their gestures as if lifted (a recognizer left without
    /// touches ends its sequence: cancelled if in progress, then reset); notes become explain lines.
    mutating func applyHygiene(_ out: inout [EngineOutput]) {
        for id in hygiene.newlyResting {
            let ri = recordIndex(id)
            guard ri >= 0 else { continue }
            var reason = Reason.sequenceEnded
            for note in hygiene.notes where note.id == id {
                switch note.reason {
                case .resting, .thumb: reason = note.reason
                default: break
                }
            }
            for r in records[ri].recognizers {
                guard let k = slots[r].touches.firstIndex(of: id) else { continue }
                slots[r].touches.remove(at: k)
                slots[r].active -= 1
                liftedSlots = true
                guard slots[r].touches.isEmpty else { continue }
                if slots[r].state.isInProgress { transition(r, .cancel, reason, &out) }
                if slots[r].state != .possible { transition(r, .reset, reason, &out) }
                if slots[r].pending != nil {
                    slots[r].pending = nil
                    pendingCount -= 1
                }
                slots[r].active = 0
                slots[r].device = nil
                slots[r].pendingEnded = false
                slots[r].settleUntil = nil
                logics.reset(r)
            }
            records[ri].recognizers.removeAll()
        }
        explainHygieneNotes(from: 0, &out)
    }

    /// The hygiene's notes from `first` on, as explain lines (when explaining).
    mutating func explainHygieneNotes(from first: Int, _ out: inout [EngineOutput]) {
        guard explains else { return }
        for note in hygiene.notes[first...] {
            let ri = recordIndex(note.id)
            let text = note.reason.text(name: { [slots] in slots[$0].id })
            let region = ri >= 0 ? records[ri].regionID ?? "" : ""
            out.append(.explain(ExplainEvent(gesture: "", region: region, from: .possible, to: .possible, time: now,
                                             reason: text)))
        }
    }
}
