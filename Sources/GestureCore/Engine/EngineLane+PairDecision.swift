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
        }
    }

    /// `updatePairDecision` with the fingers in the button area left out (only while the hygiene
    /// leaves them out: exactly two fingers down, one of them there).
    mutating func updatePairDecisionLeavingOutButtonArea() {
        var counted: [Touch] = []
        for k in hygiene.touches.indices where !hygiene.inButtonArea(hygiene.touches[k].id) {
            counted.append(hygiene.touches[k])
        }
        pairDecision.update(counted, at: now)
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

    /// Whether fingers in a clickpad's button area are left out of this frame's gestures: while
    /// exactly two gesture fingers are down (a scroll or a pinch). One finger alone stays the pointer
    /// as before, and three or four stay a swipe or a pinch of them all: libinput leaves such a
    /// finger out of those too (its pointer waits, its swipe is of the others), which here moved the
    /// pointer of real recordings into an edge pan and lost a three-finger swipe whose finger rests
    /// on the buttons (docs/recognizers.md, "Begin with libinput").
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
}
