/// The state machine the pan family shares (pan, edge pan, continuous swipe): `minimum`...`maximum`
/// fingers whose centroid (`MotionTracker`) moves a threshold. Before it begins, more fingers fail it,
/// fewer wait, and every finger lifting fails it; once begun, a move changes it, fewer than `minimum`
/// (at least one) end it and more than `maximum` cancel it. The machine is written once here; what
/// differs, where it may start, what crossing the threshold decides and every reason it fails, is the
/// kind's `CentroidRules`, in the kind's own file beside its transition table (`PanRecognizer.swift`,
/// `EdgePanRecognizer.swift`, `ContinuousSwipeRecognizer.swift`). A kind's table lists the rows its
/// rules can take; the switch below has every row any of them takes.
///
/// | from    | event          | to      | what the rules decide                                    |
/// |---------|----------------|---------|----------------------------------------------------------|
/// | idle    | landed         | waiting | `landed`: nil (the first finger landed where it may start) |
/// | idle    | landed         | done    | `landed`: its reason                                     |
/// | waiting | tooFewFingers  | waiting | — (`restartsWhenFew`: the translation starts again)      |
/// | waiting | tooManyFingers | done    | fail: more than `maximum`                                |
/// | waiting | crossed        | active  | `crossed`: begin                                         |
/// | waiting | crossed        | done    | `crossed`: fail                                          |
/// | waiting | crossed        | waiting | `crossed`: undecided                                     |
/// | waiting | spread         | done    | `spread`'s reason                                        |
/// | waiting | allLifted      | done    | `lifted`'s reason                                        |
/// | active  | moved          | active  | change                                                   |
/// | active  | tooFewFingers  | done    | end                                                      |
/// | active  | tooManyFingers | done    | cancel                                                   |
struct CentroidMachine<Rules: CentroidRules>: ContinuousLogic {
    enum State: Sendable { case idle, waiting, active, done }
    enum Event: Sendable {
        /// The first finger landed, this far (mm) from the nearest of the kind's edges (nil: none).
        case landed(Edge?, Double)
        case tooFewFingers(Int)
        case tooManyFingers(Int)
        /// The centroid moved the threshold: its translation, mm.
        case crossed(Point)
        /// The fingers moved apart before the centroid crossed (a swipe's pinch): the rules' reason.
        case spread(Reason)
        case allLifted
        case moved
    }

    /// What crossing the threshold decides.
    enum Crossing: Sendable {
        case begin(Reason)
        case fail(Reason)
        /// Not yet: the motion does not fit while a rival may still be the gesture.
        case undecided
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = Rules.waitsForLanding ? State.idle : .waiting
    private var tracker = MotionTracker()
    private var motion = FingerMotion()
    private var fingers = FollowedFingers()
    private var rules = Rules()
    private var mostFingers = 0
    private var contested = false

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = Rules.waitsForLanding ? .idle : .waiting
        tracker.reset()
        motion.reset()
        fingers.reset()
        mostFingers = 0
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        if state == .idle, let landing = Rules.landing(input, p) {
            let proposal = step(landing)
            if !proposal.isNone { return proposal }
        }
        var n = 0
        let touches: [Touch]
        if Rules.followsFingers {
            n = fingers.follow(input, capped: state == .active, limit: Rules.maximum(p))
            touches = fingers.touches(of: input.touches)
        } else {
            touches = input.touches
        }
        contested = input.contested
        let moved = tracker.update(touches, at: input.time)
        if Rules.readsMotionApart { motion.update(touches) }
        if !Rules.followsFingers { n = tracker.active }
        let event: Event
        switch state {
        case .waiting:
            mostFingers = max(mostFingers, n)
            if n > Rules.maximum(p) {
                event = .tooManyFingers(n)
            } else if n == 0 {
                event = .allLifted
            } else if n < Rules.minimum(p) {
                event = .tooFewFingers(n)
            } else if let reason = Rules.spread(motion, touches, verdict: input.verdict, p) {
                event = .spread(reason)
            } else if input.crowded {
                return .none
            } else if Rules.crosses(tracker.translationMM.length, verdict: input.verdict, p) {
                event = .crossed(tracker.translationMM)
            } else {
                return .none
            }
        case .active:
            if n > Rules.maximum(p) {
                event = .tooManyFingers(n)
            } else if n < max(Rules.minimum(p), 1) {
                event = .tooFewFingers(n)
            } else if moved {
                event = .moved
            } else {
                return .none
            }
        case .idle, .done:
            return .none
        }
        return step(event)
    }

    @inline(__always)
    private mutating func step(_ event: Event) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.idle, .landed(let nearest, let d)):
            if let reason = rules.landed(nearest, d, p) {
                state = .done
                proposal = .fail(reason)
            } else {
                state = .waiting
            }
        case (.waiting, .tooFewFingers):
            if Rules.restartsWhenFew { tracker.restartTranslation() }
        case (.waiting, .tooManyFingers(let n)):
            state = .done
            proposal = .fail(.tooManyFingers(n, Rules.maximum(p)))
        case (.waiting, .crossed(let t)):
            switch rules.crossed(t, tracker, motion, contested: contested, mostFingers: mostFingers, p) {
            case .begin(let reason):
                state = .active
                proposal = .begin(reason)
            case .fail(let reason):
                state = .done
                proposal = .fail(reason)
            case .undecided:
                break
            }
        case (.waiting, .spread(let reason)):
            state = .done
            proposal = .fail(reason)
        case (.waiting, .allLifted):
            state = .done
            proposal = .fail(Rules.lifted(mostFingers: mostFingers, tracker.translationMM.length, p))
        case (.active, .moved):
            rules.moved(tracker)
            proposal = .change
        case (.active, .tooFewFingers):
            state = .done
            proposal = .end
        case (.active, .tooManyFingers(let n)):
            state = .done
            proposal = .cancel(.tooManyFingers(n, Rules.maximum(p)))
        case (.idle, .tooFewFingers), (.idle, .tooManyFingers), (.idle, .crossed), (.idle, .spread),
             (.idle, .allLifted), (.idle, .moved),
             (.waiting, .landed), (.waiting, .moved),
             (.active, .landed), (.active, .crossed), (.active, .spread), (.active, .allLifted),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition(Rules.name, from, event))
        }
        trace.record(Rules.kind, from, event, state)
        return proposal
    }

    var disqualification: Reason? { Rules.disqualification(motion, contested: contested) }

    func describe(_ event: inout GestureEvent, at time: Timestamp) { rules.describe(&event, tracker, p) }
}

/// What one kind of `CentroidMachine` decides (pan, edge pan, continuous swipe). Every reason the kind
/// fails is one of these answers. The defaults below are the pan's; a kind states where it differs.
protocol CentroidRules: Sendable {
    static var kind: RecognizerKind { get }
    /// The kind's name in a bug report.
    static var name: StaticString { get }
    /// Starts `idle`, waiting for its first finger to land (`landing`), or waiting for the threshold.
    static var waitsForLanding: Bool { get }
    /// Follows its fingers (`FollowedFingers`: at most `maximum` once begun, extra fingers ignored),
    /// or reads every touch (then more than `maximum` once begun cancel it).
    static var followsFingers: Bool { get }
    /// Reads the fingers' motion apart (`FingerMotion`) to decide.
    static var readsMotionApart: Bool { get }
    /// Too few fingers while waiting: the translation starts again (the fingers are not all down yet).
    static var restartsWhenFew: Bool { get }
    static func minimum(_ p: RecognizerParameters) -> Int
    static func maximum(_ p: RecognizerParameters) -> Int
    /// How far (mm) the centroid moves to cross.
    static func threshold(_ p: RecognizerParameters) -> Double
    /// Whether a centroid that moved `moved` mm crosses (`verdict`: libinput's decision on a touchpad).
    static func crosses(_ moved: Double, verdict: TouchpadVerdict, _ p: RecognizerParameters) -> Bool
    /// What it remembers of the gesture (the edge, the direction).
    init()
    /// Idle: the event of the frame's first landing finger, nil when none lands.
    static func landing(_ input: borrowing RecognizerInput, _ p: RecognizerParameters) -> CentroidMachine<Self>.Event?
    /// The first finger landed: nil to wait for the threshold, or why it fails.
    mutating func landed(_ nearest: Edge?, _ distance: Double, _ p: RecognizerParameters) -> Reason?
    /// Before crossing: why the fingers' motion apart fails it, nil while it does not.
    static func spread(_ motion: FingerMotion, _ touches: [Touch], verdict: TouchpadVerdict,
                       _ p: RecognizerParameters) -> Reason?
    /// The centroid crossed the threshold, `translation` mm (`mostFingers`: the most down before).
    mutating func crossed(_ translation: Point, _ tracker: MotionTracker, _ motion: FingerMotion,
                          contested: Bool, mostFingers: Int, _ p: RecognizerParameters) -> CentroidMachine<Self>.Crossing
    /// Why it fails when every finger lifted before it began.
    static func lifted(mostFingers: Int, _ moved: Double, _ p: RecognizerParameters) -> Reason
    /// Once begun, the fingers moved.
    mutating func moved(_ tracker: MotionTracker)
    /// Why a held begin no longer fits the motion when released (nil: it still fits).
    static func disqualification(_ motion: FingerMotion, contested: Bool) -> Reason?
    /// The kind's fields of an event.
    func describe(_ event: inout GestureEvent, _ tracker: MotionTracker, _ p: RecognizerParameters)
}

extension CentroidRules {
    static var waitsForLanding: Bool { false }
    static var followsFingers: Bool { true }
    static var readsMotionApart: Bool { true }
    static var restartsWhenFew: Bool { true }
    static func minimum(_ p: RecognizerParameters) -> Int { p.minimumFingers }
    static func maximum(_ p: RecognizerParameters) -> Int { p.maximumFingers }
    static func threshold(_ p: RecognizerParameters) -> Double { p.panThreshold }
    static func crosses(_ moved: Double, verdict: TouchpadVerdict, _ p: RecognizerParameters) -> Bool {
        moved >= threshold(p)
    }
    static func landing(_ input: borrowing RecognizerInput, _ p: RecognizerParameters) -> CentroidMachine<Self>.Event? { nil }
    mutating func landed(_ nearest: Edge?, _ distance: Double, _ p: RecognizerParameters) -> Reason? { nil }
    static func spread(_ motion: FingerMotion, _ touches: [Touch], verdict: TouchpadVerdict,
                       _ p: RecognizerParameters) -> Reason? { nil }
    mutating func moved(_ tracker: MotionTracker) {}
    static func disqualification(_ motion: FingerMotion, contested: Bool) -> Reason? { nil }

    /// A pan's fields: its fingers (never more than `maximum`), centroid, translation and velocity.
    func describe(_ event: inout GestureEvent, _ tracker: MotionTracker, _ p: RecognizerParameters) {
        tracker.describePan(&event)
        event.fingers = min(event.fingers, Self.maximum(p))
    }
}
