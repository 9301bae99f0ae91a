/// What a tracker reports about one contact at a SYN_REPORT, before it becomes a `Touch`.
/// `key` is stable for as long as the device says it is the same contact (one tracking-id
/// lifetime, one matched protocol-A contact, one BTN_TOUCH press).
struct ContactSample: Sendable {
    enum Contact: Sendable { case touching, hovering, palm }
    var key: UInt64
    var x: Int32
    var y: Int32
    var contact: Contact
    var pressure: Int32
    var hasPressure: Bool
    var major: Int32
    var hasMajor: Bool
    /// A pen interface's tool, or a slot's MT_TOOL_PEN; a finger otherwise.
    var type: TouchType

    init(key: UInt64, x: Int32, y: Int32, contact: Contact = .touching,
         pressure: Int32 = 0, hasPressure: Bool = false, major: Int32 = 0, hasMajor: Bool = false,
         type: TouchType = .finger) {
        self.key = key
        self.x = x
        self.y = y
        self.contact = contact
        self.pressure = pressure
        self.hasPressure = hasPressure
        self.major = major
        self.hasMajor = hasMajor
        self.type = type
    }
}

/// The contacts of one SYN_REPORT, as the trackers collect them for the frame assembler.
typealias ContactSamples = ScratchList<ContactSample>

extension ScratchList where Element == ContactSample {
    /// The sample of the contact with this key, if it is in the frame.
    @inline(__always)
    func sample(key: UInt64) -> ContactSample? {
        for index in indices where self[index].key == key { return self[index] }
        return nil
    }
}

/// Hands out contact keys, unique within one assembler.
struct ContactKeyGenerator: Sendable {
    private var next: UInt64 = 1
    mutating func make() -> UInt64 {
        defer { next &+= 1 }
        return next
    }
}

/// The per-contact axis values every protocol carries (position, pressure, size, tool, hover).
struct ContactAxes: Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    /// Whether x / y were ever reported (or read with a live device's state): the kernel sends only
    /// values that changed, so a contact may go on without one; a value nobody reported is unknown.
    var hasX = false
    var hasY = false
    var pressure: Int32 = 0
    var hasPressure = false
    var major: Int32 = 0
    var hasMajor = false
    var toolType: Int32 = MTToolType.finger.rawValue
    var distance: Int32 = 0
    /// Protocol A contacts may carry ABS_MT_TRACKING_ID (-1: none).
    var trackingID: Int32 = -1

    /// Stores an ABS_MT_* axis value; returns false for codes that are not per-contact axes.
    @inline(__always)
    mutating func store(_ code: EventCode, _ value: Int32) -> Bool {
        switch code {
        case .absMTPositionX: x = value; hasX = true
        case .absMTPositionY: y = value; hasY = true
        case .absMTPressure: pressure = value; hasPressure = true
        case .absMTTouchMajor: major = value; hasMajor = true
        case .absMTToolType: toolType = value
        case .absMTDistance: distance = value
        case .absMTTrackingID: trackingID = value
        default: return false
        }
        return true
    }

    /// Both coordinates known.
    var hasPosition: Bool { hasX && hasY }

    /// The contact as a sample; a coordinate never reported takes the fallback (the single-touch
    /// emulation's ABS_X / ABS_Y, when that is known), else the contact has no position yet: nil, not a
    /// touch until it has one.
    @inline(__always)
    func sample(key: UInt64, fallbackX: Int32?, fallbackY: Int32?) -> ContactSample? {
        let px: Int32, py: Int32
        if hasX { px = x } else if let fallbackX { px = fallbackX } else { return nil }
        if hasY { py = y } else if let fallbackY { py = fallbackY } else { return nil }
        let state: ContactSample.Contact =
            toolType == MTToolType.palm.rawValue ? .palm : (distance > 0 ? .hovering : .touching)
        return ContactSample(key: key, x: px, y: py, contact: state, pressure: pressure, hasPressure: hasPressure,
                             major: major, hasMajor: hasMajor,
                             type: toolType == MTToolType.pen.rawValue ? .pen : .finger)
    }
}
