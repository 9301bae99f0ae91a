/// Protocol A: anonymous contacts, each closed by SYN_MT_REPORT, the whole list by SYN_REPORT.
/// Contacts carry no identity, so each one is matched to the nearest contact of the previous frame
/// (greedy, closest pair first, distance in mm) to keep touches stable. Contacts that do carry
/// ABS_MT_TRACKING_ID are matched by it first.
///
/// Transition table (`State` × `Event` → next state, effect):
///
/// | state       | event                 | next        | effect                                                  |
/// |-------------|-----------------------|-------------|---------------------------------------------------------|
/// | idle        | axis(code, value)     | collecting  | value stored in the contact being described              |
/// | collecting  | axis(code, value)     | collecting  | value stored                                             |
/// | idle        | contactEnd            | idle        | empty SYN_MT_REPORT: nothing (a "no contacts" marker)    |
/// | collecting  | contactEnd            | idle        | contact appended to this frame's list (if it had x and y) |
/// | any         | frameEnd              | idle        | list matched to the previous frame's; it becomes previous |
/// | any         | resync                | idle        | previous contacts forgotten: what is reported next is new |
///
/// A frame with no SYN_MT_REPORT at all while BTN_TOUCH stays down repeats the previous contacts
/// (some drivers send only legacy events in such frames).
struct ContactListTracker: Sendable {
    enum State: Sendable { case idle, collecting }
    enum Event: Sendable {
        case axis(EventCode, Int32)
        case contactEnd
        case frameEnd(buttonTouchDown: Bool)
        case resync
    }
    struct Matched: Sendable {
        var key: UInt64
        var axes: ContactAxes
    }

    static let maximumContacts = 16

    private(set) var state: State = .idle
    private var describing = ContactAxes()
    private var pending: [ContactAxes] = []
    private var sawContactEnd = false
    /// Scratch list for matching; after a frame it holds the frame before.
    private var contacts: [Matched] = []
    /// The contacts of the last frame, with their keys.
    private var previous: [Matched] = []
    private var pairs: [(distance: Double, new: Int, old: Int)] = []
    private var usedNew: [Bool] = []
    private var usedOld: [Bool] = []
    private var keyOfNew: [UInt64] = []
    /// mm per device unit, for distances.
    private let scale: Point

    init(deviceUnitsPerMM: Point) {
        scale = Point(x: 1 / max(deviceUnitsPerMM.x, 1e-9), y: 1 / max(deviceUnitsPerMM.y, 1e-9))
        pending.reserveCapacity(Self.maximumContacts)
        contacts.reserveCapacity(Self.maximumContacts)
        previous.reserveCapacity(Self.maximumContacts)
        pairs.reserveCapacity(Self.maximumContacts * Self.maximumContacts)
    }

    @inline(__always)
    mutating func handle(_ event: Event, keys: inout ContactKeyGenerator) {
        switch (state, event) {
        case (_, .axis(let code, let value)):
            if describing.store(code, value) { state = .collecting }
        case (.idle, .contactEnd):
            sawContactEnd = true
        case (.collecting, .contactEnd):
            sawContactEnd = true
            if describing.hasPosition && pending.count < Self.maximumContacts { pending.append(describing) }
            describing = ContactAxes()
            state = .idle
        case (_, .frameEnd(let buttonTouchDown)):
            // A legacy-only frame (no SYN_MT_REPORT, BTN_TOUCH still down) keeps the contacts.
            if sawContactEnd || !buttonTouchDown {
                match(keys: &keys)
                swap(&contacts, &previous)
            }
            pending.clearKeepingCapacity()
            describing = ContactAxes()
            sawContactEnd = false
            state = .idle
        case (_, .resync):
            previous.clearKeepingCapacity()
            contacts.clearKeepingCapacity()
            pending.clearKeepingCapacity()
            describing = ContactAxes()
            sawContactEnd = false
            state = .idle
        }
    }

    /// Greedy nearest matching of `pending` to `previous`; unmatched new contacts get fresh keys.
    private mutating func match(keys: inout ContactKeyGenerator) {
        contacts.clearKeepingCapacity()
        pairs.clearKeepingCapacity()
        usedNew.clearKeepingCapacity()
        usedNew.append(contentsOf: repeatElement(false, count: pending.count))
        usedOld.clearKeepingCapacity()
        usedOld.append(contentsOf: repeatElement(false, count: previous.count))
        keyOfNew.clearKeepingCapacity()
        keyOfNew.append(contentsOf: repeatElement(0, count: pending.count))
        for (n, new) in pending.enumerated() where new.trackingID >= 0 {
            for (o, old) in previous.enumerated() where !usedOld[o] && old.axes.trackingID == new.trackingID {
                usedNew[n] = true
                usedOld[o] = true
                keyOfNew[n] = old.key
                break
            }
        }
        for (n, new) in pending.enumerated() where !usedNew[n] {
            for (o, old) in previous.enumerated() where !usedOld[o] {
                // A contact with a tracking id never takes over another id's touch.
                if new.trackingID >= 0 && old.axes.trackingID >= 0 { continue }
                let dx = (Double(new.x) - Double(old.axes.x)) * scale.x
                let dy = (Double(new.y) - Double(old.axes.y)) * scale.y
                pairs.append((dx * dx + dy * dy, n, o))
            }
        }
        pairs.sort { $0.distance < $1.distance }
        for pair in pairs where !usedNew[pair.new] && !usedOld[pair.old] {
            usedNew[pair.new] = true
            usedOld[pair.old] = true
            keyOfNew[pair.new] = previous[pair.old].key
        }
        for (n, axes) in pending.enumerated() {
            contacts.append(Matched(key: usedNew[n] ? keyOfNew[n] : keys.make(), axes: axes))
        }
    }

    func collect(into samples: inout ContactSamples) {
        for contact in previous {
            // Every contact kept has both coordinates (`contactEnd` drops those without).
            if let sample = contact.axes.sample(key: contact.key, fallbackX: nil, fallbackY: nil) { samples.append(sample) }
        }
    }
}
