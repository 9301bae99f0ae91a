/// Protocol B: one state machine per slot, driven by ABS_MT_SLOT / ABS_MT_TRACKING_ID.
///
/// Slot transition table (`State` × `Event` → next state, effect):
///
/// | state            | event                         | next             | effect                                       |
/// |------------------|-------------------------------|------------------|----------------------------------------------|
/// | empty            | trackingID(id ≥ 0)            | active(id)       | new contact key: a touch begins at the frame  |
/// | empty            | trackingID(-1)                | empty            | none                                         |
/// | active(id)       | trackingID(id)                | active(id)       | none (the same id re-sent)                    |
/// | active(id)       | trackingID(other ≥ 0)         | active(other)    | new key: the old touch ends, a new one begins |
/// | active(id)       | trackingID(-1)                | empty            | the touch ends at the frame                   |
/// | any              | axis(code, value)             | same             | value stored in the slot (kept across tracking |
/// |                  |                               |                  | ids: the kernel resends only changed values)   |
/// | active(id)       | resync                        | active(id)       | new key, awaiting a report: the contact begins |
/// |                  |                               |                  | anew once the device sends anything for it     |
/// | any              | reset                         | empty            | everything forgotten                          |
///
/// `selectSlot` picks the slot the following events go to; a slot out of range selects nothing, and
/// events are ignored until a valid slot is selected. Storage is a fixed array: no allocation per event.
struct SlotTracker: Sendable {
    enum State: Sendable, Equatable {
        case empty
        case active(trackingID: Int32)
    }
    enum Event: Sendable {
        case trackingID(Int32)
        case axis(EventCode, Int32)
        case resync
        case reset
    }
    struct Slot: Sendable {
        var state: State = .empty
        var key: UInt64 = 0
        var axes = ContactAxes()
        /// After a resync (SYN_DROPPED), the slot's state is stale until the device reports it again.
        var awaitingReport = false
        /// A new contact not yet seen at a SYN_REPORT.
        var placementPending = false
    }

    /// More slots than any real device has; a description claiming more is clamped to this.
    static let maximumSlots = 64

    private(set) var slots: [Slot]
    /// The selected slot, or -1 when the last ABS_MT_SLOT was out of range.
    private(set) var currentSlot: Int
    /// Contacts whose first frame had no known position (diagnostics: `AxisActivity`).
    private(set) var contactsWithoutPosition = 0

    init(slotCount: Int, initialSlot: Int32 = 0) {
        let count = min(max(1, slotCount), Self.maximumSlots)
        slots = Array(repeating: Slot(), count: count)
        currentSlot = initialSlot >= 0 && Int(initialSlot) < count ? Int(initialSlot) : 0
    }

    var slotCount: Int { slots.count }

    @inline(__always)
    mutating func selectSlot(_ value: Int32) {
        currentSlot = value >= 0 && Int(value) < slots.count ? Int(value) : -1
    }

    /// Feeds an event to the selected slot (ignored when no valid slot is selected).
    @inline(__always)
    mutating func handle(_ event: Event, keys: inout ContactKeyGenerator) {
        switch event {
        case .trackingID, .axis:
            guard currentSlot >= 0 else { return }
            Self.transition(&slots[currentSlot], event, keys: &keys)
        case .resync, .reset:
            applyToEverySlot(event, keys: &keys)
        }
    }

    /// Resync and reset, rare: kept out of line, so that `handle` stays small enough to be inlined
    /// into the per-event path.
    @inline(never)
    private mutating func applyToEverySlot(_ event: Event, keys: inout ContactKeyGenerator) {
        for index in slots.indices { Self.transition(&slots[index], event, keys: &keys) }
    }

    @inline(__always)
    private static func transition(_ slot: inout Slot, _ event: Event, keys: inout ContactKeyGenerator) {
        if case .trackingID = event { slot.awaitingReport = false }
        if case .axis = event { slot.awaitingReport = false }
        switch (slot.state, event) {
        case (.empty, .trackingID(let id)) where id >= 0,
             (.active, .trackingID(let id)) where id >= 0 && slot.state != .active(trackingID: id):
            slot.state = .active(trackingID: id)
            slot.key = keys.make()
            slot.placementPending = true
        case (.active, .trackingID(let id)) where id < 0:
            slot.state = .empty
        case (_, .trackingID):
            break
        case (_, .axis(let code, let value)):
            _ = slot.axes.store(code, value)
        case (.active, .resync):
            slot.key = keys.make()
            slot.awaitingReport = true
        case (.empty, .resync):
            break
        case (_, .reset):
            slot = Slot()
        }
    }

    /// Appends a sample for every active slot whose position is known. A coordinate the slot never
    /// reported (a recording begun mid-session: the kernel sends only values that changed) takes the
    /// fallback, the single-touch emulation's value when that is known; else the contact waits, and
    /// its touch begins at the first frame where its position is known.
    @inline(__always)
    mutating func collect(into samples: inout ContactSamples, fallbackX: Int32?, fallbackY: Int32?) {
        for index in slots.indices {
            guard case .active = slots[index].state, !slots[index].awaitingReport else { continue }
            guard let sample = slots[index].axes.sample(key: slots[index].key, fallbackX: fallbackX, fallbackY: fallbackY) else {
                if slots[index].placementPending {
                    slots[index].placementPending = false
                    contactsWithoutPosition += 1
                }
                continue
            }
            // Read first: the usual frame writes nothing here.
            if slots[index].placementPending { slots[index].placementPending = false }
            samples.append(sample)
        }
    }
}
