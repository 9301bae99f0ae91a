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
    /// classifier; a semi-multitouch pad's stay undecided.
    mutating func updatePairDecision(_ frame: borrowing TouchFrame) {
        guard !frame.device.isSemiMultitouch else {
            pairDecision.reset()
            return
        }
        pairDecision.update(hygiene.touches, at: now)
    }

    /// The classifier's decision for `r`'s fingers: when they are all the pad's gesture fingers (two
    /// or more), else `.undecided`.
    func pairVerdict(_ r: Int) -> TouchpadVerdict {
        guard deviceKind == .touchpad, slots[r].active >= 1, pairDecision.fingers == slots[r].active else {
            return .undecided
        }
        return pairDecision.verdict
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
