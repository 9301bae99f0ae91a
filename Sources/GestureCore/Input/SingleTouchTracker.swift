/// Single-touch devices: ABS_X / ABS_Y position, BTN_TOUCH contact (or, without BTN_TOUCH,
/// BTN_TOOL_FINGER or a pressure above 0). BTN_TOUCH 0 with a position is hover: not a touch.
///
/// Transition table (`State` × `Event` → next state, effect):
///
/// | state     | event                          | next      | effect                                  |
/// |-----------|--------------------------------|-----------|-----------------------------------------|
/// | up        | contact(true)                  | down      | new contact key: a touch begins          |
/// | up        | contact(false)                 | up        | none (hover or nothing)                  |
/// | down      | contact(true)                  | down      | none                                    |
/// | down      | contact(false)                 | up        | the touch ends at the frame              |
/// | any       | axis(code, value)              | same      | value stored                             |
/// |           |                                |           | (a down contact with no position ever    |
/// |           |                                |           | reported is not a touch yet)             |
/// | down      | resync                         | down      | new key, awaiting a report: the contact  |
/// |           |                                |           | begins anew once an axis is reported     |
/// | up        | resync                         | up        | none                                    |
struct SingleTouchTracker: Sendable {
    enum State: Sendable { case up, down }
    enum Event: Sendable {
        case contact(Bool)
        case axis(EventCode, Int32)
        case resync
    }

    private(set) var state: State = .up
    private(set) var key: UInt64 = 0
    private(set) var axes = ContactAxes()
    /// After a resync (SYN_DROPPED) the contact is stale until the device reports it again.
    private var awaitingReport = false
    /// A press not yet seen at a SYN_REPORT, and the presses whose first frame had no position.
    private var placementPending = false
    private(set) var contactsWithoutPosition = 0

    /// `positionKnown`: the initial values are the device's state (a live device), so a finger landing
    /// where the last one was is where it is; otherwise (a recording) a contact has no position until the
    /// device reports one, and is not a touch before.
    init(initialX: Int32, initialY: Int32, positionKnown: Bool = true) {
        axes.x = initialX
        axes.y = initialY
        axes.hasX = positionKnown
        axes.hasY = positionKnown
    }

    @inline(__always)
    mutating func handle(_ event: Event, keys: inout ContactKeyGenerator) {
        switch (state, event) {
        case (.up, .contact(true)):
            state = .down
            key = keys.make()
            awaitingReport = false
            placementPending = true
        case (.down, .contact(false)):
            state = .up
        case (_, .contact):
            break
        case (_, .axis(let code, let value)):
            awaitingReport = false
            switch code {
            case .absX: axes.x = value; axes.hasX = true
            case .absY: axes.y = value; axes.hasY = true
            case .absPressure: axes.pressure = value; axes.hasPressure = true
            case .absDistance: axes.distance = value
            default: break
            }
        case (.down, .resync):
            key = keys.make()
            awaitingReport = true
        case (.up, .resync):
            break
        }
    }

    mutating func collect(into samples: inout ContactSamples) {
        // A coordinate never reported is unknown: no touch until both are known (a device reporting its
        // position on other axes, like one eGalax controller on ABS_Z / ABS_RX, makes none rather than
        // touches at (0, 0); `axes:` in the config remaps them, docs/input.md).
        guard state == .down, !awaitingReport else { return }
        guard var sample = axes.sample(key: key, fallbackX: nil, fallbackY: nil) else {
            if placementPending {
                placementPending = false
                contactsWithoutPosition += 1
            }
            return
        }
        if placementPending { placementPending = false }
        // BTN_TOUCH decides here; ABS_DISTANCE is informative only.
        if sample.contact == .hovering { sample.contact = .touching }
        samples.append(sample)
    }
}

/// BTN_TOOL_FINGER … BTN_TOOL_QUINTTAP: how many fingers the device counts (which may exceed its slots).
///
/// | state       | event              | next        |
/// |-------------|--------------------|-------------|
/// | count(n)    | tool(k, down)      | count(k)    |
/// | count(k)    | tool(k, up)        | count(0)    |
/// | count(n)    | tool(k ≠ n, up)    | count(n)    |
/// | any         | reset              | count(0)    |
struct FingerCountTracker: Sendable {
    enum Event: Sendable {
        case tool(fingers: Int, down: Bool)
        case reset
    }
    private(set) var count = 0

    /// The finger count a BTN_TOOL_* code stands for (nil for other codes).
    @inline(__always)
    static func fingers(for code: EventCode) -> Int? {
        switch code {
        case .btnToolFinger: 1
        case .btnToolDoubleTap: 2
        case .btnToolTripleTap: 3
        case .btnToolQuadTap: 4
        case .btnToolQuintTap: 5
        default: nil
        }
    }

    @inline(__always)
    mutating func handle(_ event: Event) {
        switch event {
        case .tool(let fingers, true): count = fingers
        case .tool(let fingers, false): if count == fingers { count = 0 }
        case .reset: count = 0
        }
    }
}
