/// The state machine pinch and rotation share: a pair of fingers (`TwoFingerTracker`) whose measure of
/// their motion (`PairMotion`: the span's change, the turn) crosses a threshold. The machine is the
/// same for both, so it is written once here; what differs, the measure read, when it is crossed, what
/// begins and every reason it fails, is the kind's `PairMeasure`, in the kind's own file beside its
/// transition table (`PinchRecognizer.swift`, `RotationRecognizer.swift`). A kind's table lists the
/// rows its measure can take; the switch below has every row either kind takes.
///
/// | from     | event       | to       | what the measure decides                                 |
/// |----------|-------------|----------|----------------------------------------------------------|
/// | waiting  | pairFormed  | tracking | —                                                         |
/// | waiting  | allLifted   | done     | `failure(paired: false)`                                 |
/// | tracking | pairFormed  | tracking | — (`restarts`: the measure starts again)                 |
/// | tracking | pairLost    | waiting  | —                                                         |
/// | tracking | allLifted   | done     | `failure(paired: true)`                                  |
/// | tracking | crossed     | active   | `begin`: its reason, or nil (stays tracking)             |
/// | tracking | scrolled    | done     | the measure's reason (`crossing` raised it)              |
/// | active   | moved       | active   | change                                                   |
/// | active   | pairLost    | done     | end                                                      |
/// | active   | withdrawn   | tracking | `withdrawn` (a held begin that no longer fits)           |
struct TwoFingerMachine<Measure: PairMeasure>: ContinuousLogic {
    enum State: Sendable { case waiting, tracking, active, done }
    enum Event: Sendable {
        case pairFormed
        case pairLost
        case allLifted
        /// The measure passed its threshold (the pinch's span change, mm; the rotation's turn, degrees).
        case crossed(Double)
        /// The measure failed the pair on its motion before it crossed (a pinch claiming forwarded
        /// touches whose fingers scroll: the desktop's scroll).
        case scrolled(Reason)
        case moved
        /// The engine withdrew a held begin that no longer fits when released (`withdrawBegin`).
        case withdrawn
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.waiting
    private var pair = TwoFingerTracker()
    /// Judge every finger down, not the first two (touchpads: `TwoFingerTracker.allFingers`).
    var judgesAllFingers: Bool {
        get { pair.allFingers }
        set { pair.allFingers = newValue }
    }
    private var motion = PairMotion()
    private var ring = VelocityRing()
    private var measure = Measure()
    private var contested = false
    private var crowded = false
    /// The fingers it reports: those of the set it tracks (two, or on a touchpad every finger down
    /// when the set formed: a pinch of three fingers is a pinch of three).
    private var fingers = 2

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .waiting
        fingers = 2
        pair.reset()
        motion = PairMotion()
        ring.reset()
        measure = Measure()
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        var changedPair = false
        let two = pair.update(input, pairChanged: &changedPair)
        contested = input.contested
        crowded = input.crowded
        let event: Event
        switch state {
        case .waiting, .tracking:
            if !two {
                guard pair.fingers == 0 || state == .tracking else { return .none }
                event = pair.fingers == 0 ? .allLifted : .pairLost
            } else if state == .waiting || changedPair || pair.originRebased || input.restartsMeasure
                        || Measure.restarts(pair, p) {
                event = .pairFormed
            } else {
                motion.update(pair)
                ring.push(input.time, Point(x: Measure.value(motion), y: 0))
                guard let crossing = Measure.crossing(motion, desktopScrolls: input.desktopScrolls,
                                                      verdict: input.verdict,
                                                      libinputDeciding: input.libinputDeciding, p) else {
                    return .none
                }
                event = crossing
            }
        case .active:
            guard two, !changedPair else { return step(.pairLost, at: input.time) }
            motion.update(pair)
            ring.push(input.time, Point(x: Measure.value(motion), y: 0))
            guard input.anyMoved else { return .none }
            event = .moved
        case .done:
            return .none
        }
        return step(event, at: input.time)
    }

    private mutating func step(_ event: Event, at time: Timestamp) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.waiting, .pairFormed), (.tracking, .pairFormed):
            state = .tracking
            fingers = pair.setSize
            motion.start(pair)
            ring.reset()
            ring.push(time, Point(x: Measure.origin, y: 0))
        case (.waiting, .allLifted):
            state = .done
            proposal = pair.failureWhenLifted(measure.failure(motion, paired: false, p)) ?? .fail(.sequenceEnded)
        case (.tracking, .pairLost):
            state = .waiting
        case (.tracking, .allLifted):
            state = .done
            proposal = .fail(measure.failure(motion, paired: true, p))
        case (.tracking, .crossed(let value)):
            if let reason = measure.begin(value, motion, contested: contested, crowded: crowded, fingers: fingers, p) {
                state = .active
                proposal = .begin(reason)
            }
        case (.tracking, .scrolled(let reason)):
            state = .done
            proposal = .fail(reason)
        case (.active, .moved):
            proposal = .change
        case (.active, .pairLost):
            state = .done
            proposal = .end
        case (.active, .withdrawn):
            // Decides on from here: the motion keeps its origin, and a lift before it fits says why.
            state = .tracking
            measure.withdrawn(motion)
        case (.waiting, .pairLost), (.waiting, .crossed), (.waiting, .moved), (.tracking, .moved),
             (.waiting, .scrolled), (.active, .scrolled), (.waiting, .withdrawn), (.tracking, .withdrawn),
             (.active, .pairFormed), (.active, .allLifted), (.active, .crossed),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition(Measure.name, from, event))
        }
        trace.record(Measure.kind, from, event, state)
        return proposal
    }

    var disqualification: Reason? {
        Measure.disqualification(motion, active: state == .active, contested: contested, p)
    }

    mutating func withdrawBegin(at time: Timestamp) -> Reason? {
        guard state == .active, let reason = Measure.withdrawal(motion) else { return nil }
        if case .bug = step(.withdrawn, at: time) { return nil }
        return reason
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = fingers
        event.location = pair.location
        Measure.describe(&event, motion)
        event.scalarVelocity = ring.velocity.x
    }
}

/// What one kind of `TwoFingerMachine` measures of the pair and decides on it (pinch: the span's
/// change; rotation: the turn). Every reason the kind fails is one of these answers.
protocol PairMeasure: Sendable {
    static var kind: RecognizerKind { get }
    /// The kind's name in a bug report.
    static var name: StaticString { get }
    /// The measure when the pair forms (the velocity's origin).
    static var origin: Double { get }
    /// What a pair's measure remembers while it decides (nothing, or what it overruled).
    init()
    /// The value whose velocity the gesture reports.
    static func value(_ motion: PairMotion) -> Double
    /// The pair cannot be measured yet: its measure starts again (`pairFormed`).
    static func restarts(_ pair: TwoFingerTracker, _ p: RecognizerParameters) -> Bool
    /// `crossed` once the measure passes its threshold (or libinput's `verdict` on a touchpad says
    /// so), `scrolled` when the motion fails it first, nil while neither.
    static func crossing(_ motion: PairMotion, desktopScrolls: Bool, verdict: TouchpadVerdict,
                         libinputDeciding: Bool, _ p: RecognizerParameters) -> TwoFingerMachine<Self>.Event?
    /// Crossed: the begin's reason (`fingers`: those it reports), or nil while the motion does not fit
    /// (it stays tracking).
    mutating func begin(_ value: Double, _ motion: PairMotion, contested: Bool, crowded: Bool, fingers: Int,
                        _ p: RecognizerParameters) -> Reason?
    /// Why it fails when every finger lifted before it began (`paired`: after a pair formed).
    func failure(_ motion: PairMotion, paired: Bool, _ p: RecognizerParameters) -> Reason
    /// Why a held begin no longer fits the motion when released (nil: it still fits).
    static func disqualification(_ motion: PairMotion, active: Bool, contested: Bool,
                                 _ p: RecognizerParameters) -> Reason?
    /// A disqualified begin goes back to deciding with this explain reason; nil: it fails instead.
    static func withdrawal(_ motion: PairMotion) -> Reason?
    /// A begin was withdrawn: what a lift before the next begin will say.
    mutating func withdrawn(_ motion: PairMotion)
    /// The kind's fields of an event.
    static func describe(_ event: inout GestureEvent, _ motion: PairMotion)
}

/// A recognizer with no deadline of its own (the continuous kinds): nothing fires.
protocol ContinuousLogic: RecognizerLogic {}

extension ContinuousLogic {
    var deadline: Timestamp? { nil }
    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }
}
