/// What the engine does with contacts before any recognizer sees them, per device kind (touchpad /
/// touchscreen). Every length in mm, every time in ms; nil turns a rule off. Defaults and their
/// reasons: docs/recognizers.md ("Real hands").
public struct ContactHygieneSettings: Hashable, Sendable {
    /// A contact's first motion report within `landingJumpWindow` ms of touch-down that moves at least
    /// `landingJumpDistance` mm faster than this (mm/s) is the sensor settling, not the finger: its
    /// distance is ignored (the contact starts again from there).
    public var landingJumpSpeed: Double?
    public var landingJumpWindow: Double = 30
    public var landingJumpDistance: Double = 1.5
    /// A contact already down this long (ms) and still (moved less than `restingMovement` mm since it
    /// landed) when another contact lands is resting (a thumb or a resting finger): not a gesture finger.
    public var restingTime: Double?
    public var restingMovement: Double = 2
    /// On a touchpad, a contact within this many mm of the bottom edge, still for `thumbTime` ms when
    /// another contact lands, is a resting thumb (sooner than `restingTime`: a thumb rests there).
    public var thumbZone: Double?
    public var thumbTime: Double = 150
    /// In a frame where a contact lands or lifts, the other contacts' motion is the sensor re-fitting
    /// its contacts (a touchpad reports a jump; a semi-MT one moves its bounding box), not the fingers:
    /// it is ignored (those contacts start again from there).
    public var ignoresMotionWhenCountChanges = false
    /// On a clickpad (INPUT_PROP_BUTTONPAD), a click pins the contacts down: their motion is ignored
    /// until one moves more than this from where the click caught it.
    public var clickPinDistance: Double?

    public init(landingJumpSpeed: Double? = nil, restingTime: Double? = nil, thumbZone: Double? = nil,
                clickPinDistance: Double? = nil, ignoresMotionWhenCountChanges: Bool = false) {
        self.ignoresMotionWhenCountChanges = ignoresMotionWhenCountChanges
        self.landingJumpSpeed = landingJumpSpeed
        self.restingTime = restingTime
        self.thumbZone = thumbZone
        self.clickPinDistance = clickPinDistance
    }

    /// Touchpads: the sensor's first report jumps, thumbs rest on the pad, clickpads are pressed.
    public static let touchpad = ContactHygieneSettings(landingJumpSpeed: 150, restingTime: 300, thumbZone: 10,
                                                        clickPinDistance: 3, ignoresMotionWhenCountChanges: true)
    /// Touchscreens: direct touch; a finger that rests is meant (a two-handed gesture), flicks start fast.
    public static let touchscreen = ContactHygieneSettings()

    public static func defaults(for kind: DeviceKind) -> ContactHygieneSettings {
        kind == .touchpad ? .touchpad : .touchscreen
    }
}

/// A note about one contact, for explain lines.
enum ContactNote: Sendable, Hashable {
    /// The first-contact jump: distance (mm) and time since touch-down (ms).
    case landingJump(TouchID, Double, Double)
    /// A contact resting: still for (ms) when another (id) landed.
    case resting(TouchID, Double, TouchID)
    /// A resting thumb in the bottom zone: its distance from the edge (mm).
    case thumb(TouchID, Double)
}

/// The engine's per-device filter between a frame and the recognizers (libinput's touchpad hygiene,
/// in UIKit's world): drops the first-contact jump, takes resting contacts and thumbs out of
/// gestures, and pins clicked contacts on a clickpad. Pure; one per lane.
struct ContactHygiene: Sendable {
    var settings: ContactHygieneSettings
    /// The frame's touches as recognizers see them (jumps and pinned motion removed).
    private(set) var touches: [Touch] = []
    /// Contacts that became resting in this frame (the engine takes them out of their gestures).
    private(set) var newlyResting: [TouchID] = []
    /// Whether a physical click went down in this frame.
    private(set) var clicked = false
    private(set) var notes: [ContactNote] = []

    private struct Contact: Sendable {
        var id: TouchID
        var down: Timestamp
        var origin: Point
        /// The farthest it has been from where it landed (mm).
        var wandered = 0.0
        var jumpChecked = false
        var resting = false
        var pin: Point?
        var pinLocation: Point?
    }
    private var contacts: [Contact] = []
    private var buttonDown = false

    init(settings: ContactHygieneSettings) { self.settings = settings }

    func isResting(_ id: TouchID) -> Bool { contacts.contains { $0.id == id && $0.resting } }

    /// Filters one frame. `touches` then holds what recognizers see; resting contacts are left out.
    @inline(__always)
    mutating func process(_ frame: TouchFrame) {
        touches.clearKeepingCapacity()
        newlyResting.clearKeepingCapacity()
        notes.clearKeepingCapacity()
        clicked = frame.physicalButtonDown && !buttonDown && frame.device.isButtonpad
        let released = !frame.physicalButtonDown && buttonDown
        buttonDown = frame.physicalButtonDown
        var landed: TouchID?
        var countChanged = false
        for k in frame.touches.indices {  // by index: no copy of each touch
            let phase = frame.touches[k].phase
            guard phase != .moved && phase != .stationary else { continue }
            countChanged = true
            if phase == .began { landed = frame.touches[k].id }
        }
        if let landed { markResting(besides: landed, frame) }
        for var touch in frame.touches {
            var k = contacts.firstIndex { $0.id == touch.id } ?? -1
            if k < 0 {
                guard !touch.phase.isTerminal else { continue }
                contacts.append(Contact(id: touch.id, down: touch.time, origin: touch.physicalLocation))
                k = contacts.count - 1
            }
            let step = touch.physicalLocation.distance(to: touch.previousPhysicalLocation)
            if touch.phase == .moved && countChanged && settings.ignoresMotionWhenCountChanges {
                touch.originRebased = true
                contacts[k].origin = touch.physicalLocation
                contacts[k].jumpChecked = true
                touch.previousLocation = touch.location
                touch.previousPhysicalLocation = touch.physicalLocation
            } else if touch.phase == .moved && !contacts[k].jumpChecked {
                contacts[k].jumpChecked = true
                let ms = touch.time.milliseconds(since: contacts[k].down)
                if let speed = settings.landingJumpSpeed, ms <= settings.landingJumpWindow,
                   step >= settings.landingJumpDistance, ms > 0, step / ms * 1000 >= speed {
                    notes.append(.landingJump(touch.id, step, ms))
                    touch.originRebased = true
                    contacts[k].origin = touch.physicalLocation
                    touch.previousLocation = touch.location
                    touch.previousPhysicalLocation = touch.physicalLocation
                }
            } else {
                contacts[k].wandered = max(contacts[k].wandered, touch.physicalLocation.distance(to: contacts[k].origin))
            }
            if let distance = settings.clickPinDistance {
                if clicked && !touch.phase.isTerminal {
                    contacts[k].pin = touch.physicalLocation
                    contacts[k].pinLocation = touch.location
                }
                if let pin = contacts[k].pin, let pinLocation = contacts[k].pinLocation {
                    if touch.physicalLocation.distance(to: pin) > distance || (released && touch.phase != .moved) {
                        contacts[k].pin = nil
                        contacts[k].pinLocation = nil
                    } else {
                        touch.location = pinLocation
                        touch.previousLocation = pinLocation
                        touch.physicalLocation = pin
                        touch.previousPhysicalLocation = pin
                        if touch.phase == .moved { touch.phase = .stationary }
                    }
                }
            }
            let resting = contacts[k].resting
            if touch.phase.isTerminal { contacts.remove(at: k) }
            if !resting { touches.append(touch) }
        }
    }

    /// A contact lands: the other contacts that are still and either down long enough or in the thumb
    /// zone are resting from now on.
    private mutating func markResting(besides landed: TouchID, _ frame: TouchFrame) {
        guard settings.restingTime != nil || settings.thumbZone != nil else { return }
        for k in contacts.indices where !contacts[k].resting && contacts[k].id != landed {
            guard contacts[k].wandered < settings.restingMovement,
                  let touch = frame.touches.first(where: { $0.id == contacts[k].id }), !touch.phase.isTerminal
            else { continue }
            let still = frame.time.milliseconds(since: contacts[k].down)
            if let time = settings.restingTime, still >= time {
                contacts[k].resting = true
                newlyResting.append(contacts[k].id)
                notes.append(.resting(contacts[k].id, still, landed))
                continue
            }
            if let zone = settings.thumbZone, still >= settings.thumbTime, frame.device.kind == .touchpad,
               frame.unitsPerMM.y > 0 {
                let fromBottom = (frame.surfaceSize.y - touch.location.y) / frame.unitsPerMM.y
                if fromBottom <= zone {
                    contacts[k].resting = true
                    newlyResting.append(contacts[k].id)
                    notes.append(.thumb(contacts[k].id, fromBottom))
                }
            }
        }
    }

    mutating func reset() {
        contacts.clearKeepingCapacity()
        buttonDown = false
    }
}
