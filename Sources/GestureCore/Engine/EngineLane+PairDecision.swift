/// Touchpads begin with libinput (docs/recognizers.md, "Touchpads"): libinput decides a gesture of
/// two to four fingers as soon as two of them have moved 1.5 to 2.5 mm (`TouchpadPairClassifier`),
/// and its scroll, swipe or pinch begins in that frame. The lane keeps the same decision about its
/// pad's fingers; it ends a gesture's settling (a success held while a finger may still join) and
/// is the multi-finger pan's, swipe's and pinch's threshold (`RecognizerInput.verdict`), while their
/// own motion rules still say which of them it is. Semi-multitouch pads (a bounding box, not the
/// fingers) keep settling by distance (`settleDistance`), as libinput does not trust their directions
/// either; one finger alone is the pointer and settles by distance too (a second finger may land).
extension EngineLane {
    /// Feeds the frame's gesture fingers (resting contacts, thumbs and palms left out) to the
    /// classifier; a semi-multitouch pad's stay undecided. Fingers resting in a clickpad's button
    /// area are left out too until they leave it (libinput's `tp_touch_active_for_gesture`): one
    /// leaving makes a new set, decided from there.
    mutating func updatePairDecision(_ frame: borrowing TouchFrame) {
        guard !frame.device.isSemiMultitouch else {
            pairDecision.reset()
            return
        }
        if leavesOutButtonArea() {
            updatePairDecisionLeavingOutButtonArea()
        } else {
            pairDecision.update(hygiene.touches, at: now)
            if withButtonAreaFingers.state != .idle { withButtonAreaFingers.reset() }
        }
    }

    /// `updatePairDecision` with the fingers in the button area left out (while the hygiene leaves
    /// them out: two or more fingers down, one of them there). With three or more down,
    /// `withButtonAreaFingers` follows them all meanwhile: the gesture of them all goes on from its
    /// decision if the wait for the finger in the area runs out (`endButtonWaitIfLong`).
    mutating func updatePairDecisionLeavingOutButtonArea() {
        var counted: [Touch] = []
        for k in hygiene.touches.indices where !hygiene.inButtonArea(hygiene.touches[k].id) {
            counted.append(hygiene.touches[k])
        }
        pairDecision.update(counted, at: now)
        if hygiene.fingersDown >= 3 {
            withButtonAreaFingers.update(hygiene.touches, at: now)
        } else if withButtonAreaFingers.state != .idle {
            withButtonAreaFingers.reset()
        }
    }

    /// A touchpad pan, swipe, pinch or rotation `r` one of whose fingers rests in a clickpad's button
    /// area (`ContactHygiene.inButtonArea`) while it is left out (`leavesOutButtonArea`): it keeps
    /// measuring but does not begin (libinput counts no such finger for its gestures until it leaves
    /// the area or moves 5 mm; the finger count then rises and the gesture is decided again there).
    /// Asked only while `leavesOutButtonArea()`.
    func restsInButtonArea(_ r: Int) -> Bool {
        guard Self.decidesAgain(slots[r].kind) else { return false }
        for id in slots[r].touches where hygiene.inButtonArea(id) { return true }
        return false
    }

    /// Whether fingers in a clickpad's button area are left out of this frame's gestures: while two
    /// or more gesture fingers are down. One finger alone stays the pointer as before: libinput's
    /// pointer waits until it leaves the area, which here moved the pointer of real recordings into
    /// an edge pan. With three or four, the gesture of them all waits for the finger in the area to
    /// count, at most `buttonWaitLimit` ms past libinput's decision about them (`endButtonWaitIfLong`;
    /// docs/recognizers.md, "Begin with libinput").
    @inline(__always)
    func leavesOutButtonArea() -> Bool { hygiene.leavesOutButtonArea }

    /// The classifier's decision for `r`'s fingers: when they are all the pad's gesture fingers (two
    /// or more), else `.undecided`. Inlined: called out of line from `process`'s recognizer loop, a
    /// non-mutating call copied the whole lane (a `memcpy` per recognizer and frame).
    @inline(__always)
    func pairVerdict(_ r: Int) -> TouchpadVerdict {
        guard deviceKind == .touchpad, slots[r].active >= 1, pairDecision.fingers == slots[r].active else {
            return .undecided
        }
        return pairDecision.verdict
    }

    /// Whether libinput may still decide `r`'s two fingers by their directions (a touchpad pinch
    /// waits for it: PinchRecognizer.swift): they are the pad's gesture fingers and
    /// `TouchpadPairClassifier.stillDeciding`.
    @inline(__always)
    func pairStillDeciding(_ r: Int) -> Bool {
        deviceKind == .touchpad && pairDecision.stillDeciding && pairDecision.fingers == slots[r].active
    }

    /// Whether libinput decided `r`'s two fingers are a scroll by its one-finger scroll along their
    /// line (`TouchpadPairClassifier.leadsAlongLine`): their pan is then not contested by a pinch or
    /// rotation, though the fingers do not yet move together as a pan's do (the leader is ahead).
    @inline(__always)
    func pairScrollsByLead(_ r: Int) -> Bool {
        pairDecision.decidedByLead && pairVerdict(r) == .together
    }

    /// Settling ends by motion: on a touchpad once libinput would have decided `r`'s fingers, and on
    /// any device once they moved `settleDistance` mm (`settleMotion`): a drag under way is the
    /// gesture, whichever finger joins later.
    func settledByMotion(_ r: Int) -> Bool {
        pairVerdict(r) != .undecided || settleMotion(r) >= slots[r].settleDistance
    }

    /// A touchpad pinch `r` whose fingers libinput has decided are a pinch is not crowded by a tap
    /// of as many fingers (`crowdingRival`): fingers that moved that far apart are no tap (libinput's
    /// tap gives up after 1.3 mm), though the tap's own 5 mm have not yet failed it.
    func pinchDecided(_ r: Int, past o: Int) -> Bool {
        slots[r].kind == .pinch && (slots[o].kind == .tap || slots[o].kind == .swipe) && pairVerdict(r) == .apart
    }

    /// How long the gesture of three or more fingers waits for a finger resting in the button area
    /// to count once libinput has decided the fingers' motion, ms (`holdLimit`: no endless holds).
    /// libinput never counts that finger until it leaves the area or moves 5 mm, and scrolls or
    /// swipes with the others meanwhile; the engine's gestures are bound to every finger, so it waits
    /// that long and then counts the finger with the others, as if it always had.
    static var buttonWaitLimit: Double { holdLimit(for: .touchpad) }

    /// Ends the wait of three or more fingers for one resting in the button area once it has lasted
    /// `buttonWaitLimit` ms past libinput's decision about the others (its scroll or swipe of them):
    /// the finger counts from here, and the count with it, without deciding again: the classifier
    /// that followed every finger meanwhile (`withButtonAreaFingers`) is the pad's decision, and
    /// the gesture of them all goes on from what it measured.
    mutating func endButtonWaitIfLong(_ out: inout [EngineOutput]) {
        guard hygiene.leavesOutButtonArea && hygiene.fingersDown >= 3 && pairDecision.verdict != .undecided else {
            buttonWaitSince = nil
            return
        }
        let since = buttonWaitSince ?? now
        buttonWaitSince = since
        let waited = now.milliseconds(since: since)
        guard waited >= Self.buttonWaitLimit else { return }
        buttonWaitSince = nil
        let first = hygiene.notes.count
        hygiene.countButtonAreaContacts(waited: waited)
        pairDecision = withButtonAreaFingers
        withButtonAreaFingers.reset()
        fingerCount = hygiene.fingersDown
        decidedFingers = fingerCount
        decidedAt = now
        riseSince = nil
        explainHygieneNotes(from: first, &out)
    }
}
