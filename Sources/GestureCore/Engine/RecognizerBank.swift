/// A lane's recognizers, kept by kind: recognizer `r` (configuration order) is element `index[r]` of
/// its kind's array. Each call is a direct call on a value mutated in place where it lies, not a call
/// through `any RecognizerLogic`: no existential box to make unique or copy on every call, no
/// witness-table dispatch, which the engine paid per recognizer per frame.
struct RecognizerBank: Sendable {
    private var taps: [TapRecognizer] = []
    private var longPresses: [LongPressRecognizer] = []
    private var pans: [PanRecognizer] = []
    private var swipes: [SwipeRecognizer] = []
    /// Each swipe's continuous logic (same index as `swipes`), used where `continuous[i]` is set.
    private var continuousSwipes: [ContinuousSwipeRecognizer] = []
    private var continuous: [Bool] = []
    private var pinches: [PinchRecognizer] = []
    private var rotations: [RotationRecognizer] = []
    private var edgePans: [EdgePanRecognizer] = []
    private var kinds: [RecognizerKind] = []
    private var index: [Int] = []

    var count: Int { kinds.count }

    /// Adds the next recognizer (configuration order) of `kind`.
    mutating func append(_ kind: RecognizerKind, _ p: RecognizerParameters) {
        kinds.append(kind)
        switch kind {
        case .tap: index.append(taps.count); taps.append(TapRecognizer(p))
        case .longPress: index.append(longPresses.count); longPresses.append(LongPressRecognizer(p))
        case .pan: index.append(pans.count); pans.append(PanRecognizer(p))
        case .swipe:
            index.append(swipes.count)
            swipes.append(SwipeRecognizer(p))
            continuousSwipes.append(ContinuousSwipeRecognizer(p))
            continuous.append(false)
        case .pinch: index.append(pinches.count); pinches.append(PinchRecognizer(p))
        case .rotation: index.append(rotations.count); rotations.append(RotationRecognizer(p))
        case .edgePan: index.append(edgePans.count); edgePans.append(EdgePanRecognizer(p))
        }
    }

    /// Makes swipe `r` continuous (libinput's touchpad swipe) or discrete (UIKit's), from its next sequence.
    mutating func setSwipeContinuous(_ r: Int, _ on: Bool) {
        guard kinds[r] == .swipe else { return }
        continuous[index[r]] = on
    }

    /// Makes pinch or rotation `r` judge every finger down (touchpads) or the first two.
    mutating func setJudgesAllFingers(_ r: Int, _ on: Bool) {
        switch kinds[r] {
        case .pinch: pinches[index[r]].judgesAllFingers = on
        case .rotation: rotations[index[r]].judgesAllFingers = on
        case .tap, .longPress, .pan, .swipe, .edgePan: break
        }
    }

    mutating func handle(_ r: Int, _ input: borrowing RecognizerInput, state: GestureState) -> Proposal {
        let i = index[r]
        switch kinds[r] {
        case .tap: return taps[i].handle(input, state: state)
        case .longPress: return longPresses[i].handle(input, state: state)
        case .pan: return pans[i].handle(input, state: state)
        case .swipe: return continuous[i] ? continuousSwipes[i].handle(input, state: state) : swipes[i].handle(input, state: state)
        case .pinch: return pinches[i].handle(input, state: state)
        case .rotation: return rotations[i].handle(input, state: state)
        case .edgePan: return edgePans[i].handle(input, state: state)
        }
    }

    mutating func fire(_ r: Int, at time: Timestamp, state: GestureState) -> Proposal {
        let i = index[r]
        switch kinds[r] {
        case .tap: return taps[i].fire(at: time, state: state)
        case .longPress: return longPresses[i].fire(at: time, state: state)
        case .pan: return pans[i].fire(at: time, state: state)
        case .swipe: return continuous[i] ? continuousSwipes[i].fire(at: time, state: state) : swipes[i].fire(at: time, state: state)
        case .pinch: return pinches[i].fire(at: time, state: state)
        case .rotation: return rotations[i].fire(at: time, state: state)
        case .edgePan: return edgePans[i].fire(at: time, state: state)
        }
    }

    func deadline(_ r: Int) -> Timestamp? {
        let i = index[r]
        switch kinds[r] {
        case .tap: return taps[i].deadline
        case .longPress: return longPresses[i].deadline
        case .pan: return pans[i].deadline
        case .swipe: return continuous[i] ? continuousSwipes[i].deadline : swipes[i].deadline
        case .pinch: return pinches[i].deadline
        case .rotation: return rotations[i].deadline
        case .edgePan: return edgePans[i].deadline
        }
    }

    mutating func reset(_ r: Int) {
        let i = index[r]
        switch kinds[r] {
        case .tap: taps[i].reset()
        case .longPress: longPresses[i].reset()
        case .pan: pans[i].reset()
        case .swipe: swipes[i].reset(); continuousSwipes[i].reset()
        case .pinch: pinches[i].reset()
        case .rotation: rotations[i].reset()
        case .edgePan: edgePans[i].reset()
        }
    }

    func describe(_ r: Int, _ event: inout GestureEvent, at time: Timestamp) {
        let i = index[r]
        switch kinds[r] {
        case .tap: taps[i].describe(&event, at: time)
        case .longPress: longPresses[i].describe(&event, at: time)
        case .pan: pans[i].describe(&event, at: time)
        case .swipe: if continuous[i] { continuousSwipes[i].describe(&event, at: time) } else { swipes[i].describe(&event, at: time) }
        case .pinch: pinches[i].describe(&event, at: time)
        case .rotation: rotations[i].describe(&event, at: time)
        case .edgePan: edgePans[i].describe(&event, at: time)
        }
    }

    func disqualification(_ r: Int) -> Reason? {
        let i = index[r]
        switch kinds[r] {
        case .tap: return taps[i].disqualification
        case .longPress: return longPresses[i].disqualification
        case .pan: return pans[i].disqualification
        case .swipe: return continuous[i] ? continuousSwipes[i].disqualification : swipes[i].disqualification
        case .pinch: return pinches[i].disqualification
        case .rotation: return rotations[i].disqualification
        case .edgePan: return edgePans[i].disqualification
        }
    }

    /// A disqualified held begin goes back to deciding (the rotation's) or fails (nil).
    mutating func withdrawBegin(_ r: Int, at time: Timestamp) -> Reason? {
        let i = index[r]
        switch kinds[r] {
        case .tap: return taps[i].withdrawBegin(at: time)
        case .longPress: return longPresses[i].withdrawBegin(at: time)
        case .pan: return pans[i].withdrawBegin(at: time)
        case .swipe: return continuous[i] ? continuousSwipes[i].withdrawBegin(at: time) : swipes[i].withdrawBegin(at: time)
        case .pinch: return pinches[i].withdrawBegin(at: time)
        case .rotation: return rotations[i].withdrawBegin(at: time)
        case .edgePan: return edgePans[i].withdrawBegin(at: time)
        }
    }

    /// The recognizer's state-machine trace (steps recorded while tracing).
    subscript(trace r: Int) -> MachineTrace {
        get {
            let i = index[r]
            switch kinds[r] {
            case .tap: return taps[i].trace
            case .longPress: return longPresses[i].trace
            case .pan: return pans[i].trace
            case .swipe: return continuous[i] ? continuousSwipes[i].trace : swipes[i].trace
            case .pinch: return pinches[i].trace
            case .rotation: return rotations[i].trace
            case .edgePan: return edgePans[i].trace
            }
        }
        set {
            let i = index[r]
            switch kinds[r] {
            case .tap: taps[i].trace = newValue
            case .longPress: longPresses[i].trace = newValue
            case .pan: pans[i].trace = newValue
            case .swipe:
                // Both styles' traces: the style may change when the lane learns its device's kind.
                swipes[i].trace = newValue
                continuousSwipes[i].trace = newValue
            case .pinch: pinches[i].trace = newValue
            case .rotation: rotations[i].trace = newValue
            case .edgePan: edgePans[i].trace = newValue
            }
        }
    }
}
