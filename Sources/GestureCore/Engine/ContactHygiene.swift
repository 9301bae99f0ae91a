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
    /// libinput's palm edge zones, on a touchpad at least `palmEdgeMinimumWidth` mm wide: a contact
    /// that lands within this many mm (at most 8 % of the width) of the left or right edge, or in the
    /// top `palmTopFraction` of a pad higher than `palmTopMinimumHeight` mm, while no finger is down,
    /// is a palm: no gesture sees it. It becomes a finger when it leaves the zone away from its edge
    /// (sideways from a side edge, more than 40.5° off the vertical; down from the top, within 49.5°
    /// of it), within `palmEscapeTime` ms of landing when set (libinput: 200 ms; nil, the default: at
    /// any time, because a thumb dragged slowly in from the edge is a finger too: the Chromium OS
    /// `thumb-drag_edge` recordings), or when a finger is down beside it.
    public var palmEdgeWidth: Double?
    public var palmEdgeMinimumWidth: Double = 70
    public var palmTopFraction: Double = 0.05
    public var palmTopMinimumHeight: Double = 55
    public var palmEscapeTime: Double?
    /// A contact that lands in the thumb zone (`thumbZone` mm from the bottom edge) while two or more
    /// fingers are down, at least this many mm below the lowest of them, is a thumb from its landing
    /// (libinput's 25 mm between the two lowest contacts).
    public var thumbLandingSeparation: Double?

    public init(landingJumpSpeed: Double? = nil, restingTime: Double? = nil, thumbZone: Double? = nil,
                clickPinDistance: Double? = nil, ignoresMotionWhenCountChanges: Bool = false) {
        self.ignoresMotionWhenCountChanges = ignoresMotionWhenCountChanges
        self.landingJumpSpeed = landingJumpSpeed
        self.restingTime = restingTime
        self.thumbZone = thumbZone
        self.clickPinDistance = clickPinDistance
    }

    /// Touchpads: the sensor's first report jumps, thumbs rest on the pad, clickpads are pressed.
    /// Palms land at the side edges (and the top of a high pad); thumbs land at the bottom.
    public static let touchpad: ContactHygieneSettings = {
        var s = ContactHygieneSettings(landingJumpSpeed: 150, restingTime: 300, thumbZone: 10,
                                       clickPinDistance: 3, ignoresMotionWhenCountChanges: true)
        s.palmEdgeWidth = 8
        s.thumbLandingSeparation = 25
        return s
    }()
    /// Touchscreens: direct touch; a finger that rests is meant (a two-handed gesture), flicks start fast.
    public static let touchscreen = ContactHygieneSettings()

    public static func defaults(for kind: DeviceKind) -> ContactHygieneSettings {
        kind == .touchpad ? .touchpad : .touchscreen
    }
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
    /// Palms that became fingers in this frame: their touch is `began` here (the engine binds them now).
    private(set) var newlyFingers: [TouchID] = []
    /// Whether a physical click went down in this frame.
    private(set) var clicked = false
    /// Whether a contact landed or lifted in this frame.
    private(set) var countChanged = false
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
        /// The palm edge zone it landed in, while it is a palm.
        var palm: PalmEdge?
        /// Where it landed, mm from the surface's top left corner.
        var landedMM = Point(x: 0, y: 0)
        /// It landed in a clickpad's bottom button area and has not left it (`inButtonArea`).
        var buttonArea = false
    }
    private var contacts: [Contact] = []
    private var buttonDown = false

    init(settings: ContactHygieneSettings) { self.settings = settings }

    func isResting(_ id: TouchID) -> Bool { contacts.contains { $0.id == id && $0.resting } }

    /// Whether a contact left a clickpad's button area (began to count) in this frame (`inButtonArea`).
    private(set) var leftButtonArea = false
    /// How many contacts are in a clickpad's button area (`inButtonArea`).
    private(set) var inButtonAreaCount = 0
    /// This frame: contacts in the button area are left out of motion gestures, because two or more
    /// fingers are down (`EngineLane.leavesOutButtonArea`).
    private(set) var leavesOutButtonArea = false
    /// How many of `touches` are down (not lifting) after this frame, counted while a contact is in
    /// the button area (0 otherwise: only the button areas ask).
    private(set) var fingersDown = 0

    /// libinput's software buttons (docs/recognizers.md, "Begin with libinput"): a contact that lands
    /// in a clickpad's bottom button area does not count for a two-finger scroll or pinch
    /// (`leavesOutButtonArea`) until it leaves the area or moves more than `buttonAreaMove` mm from
    /// where it landed, or one that landed with it does. Taps and edge pans still see it: libinput's
    /// tap does too.
    func inButtonArea(_ id: TouchID) -> Bool {
        inButtonAreaCount > 0 && contacts.contains { $0.id == id && $0.buttonArea }
    }

    /// The height of a clickpad's bottom button area on a pad `height` mm high: libinput's 10 mm, or
    /// 15 % of the height on a pad lower than 66.7 mm.
    static func buttonAreaHeight(_ height: Double) -> Double { min(10, height * 0.15) }
    /// A contact in the button area moving farther than this from where it landed counts (mm):
    /// libinput's "clearly not a button".
    static let buttonAreaMove = 5.0
    /// Contacts in the button area that landed within this many ms of one that counts now count with
    /// it (libinput releases the fingers that started with it: they are part of a gesture).
    static let buttonAreaTogether = 80.0

    /// How many of the touches are down (not lifting).
    private static func countDown(_ touches: [Touch]) -> Int {
        var n = 0
        for k in touches.indices where !touches[k].phase.isTerminal { n += 1 }
        return n
    }

    /// Whether a palm is down (it may become a finger on its next move).
    var hasPalm: Bool { contacts.contains { $0.palm != nil } }

    /// Whether no gesture sees the contact (resting, a thumb or a palm): the engine binds it to none.
    func isHidden(_ id: TouchID) -> Bool { contacts.contains { $0.id == id && ($0.resting || $0.palm != nil) } }

    /// Filters one frame. `touches` then holds what recognizers see; resting contacts are left out.
    @inline(__always)
    mutating func process(_ frame: TouchFrame) {
        touches.clearKeepingCapacity()
        newlyResting.clearKeepingCapacity()
        newlyFingers.clearKeepingCapacity()
        leftButtonArea = false
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
        self.countChanged = countChanged
        if let landed { markResting(besides: landed, frame) }
        for var touch in frame.touches {
            var k = contacts.firstIndex { $0.id == touch.id } ?? -1
            if k < 0 {
                guard !touch.phase.isTerminal else { continue }
                contacts.append(Contact(id: touch.id, down: touch.time, origin: touch.physicalLocation))
                k = contacts.count - 1
                if frame.device.kind == .touchpad && touch.phase == .began { classifyLanding(k, touch, frame) }
            } else if contacts[k].palm != nil && !touch.phase.isTerminal {
                releasePalmIfFinger(k, &touch, frame)
            }
            if contacts[k].buttonArea && !touch.phase.isTerminal && touch.phase != .began {
                leaveButtonAreaIfOut(k, touch, frame)
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
                    notes.append(ContactNote(touch.id, .landingJump(step, ms)))
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
            let resting = contacts[k].resting || contacts[k].palm != nil
            if touch.phase.isTerminal {
                if contacts[k].buttonArea { inButtonAreaCount -= 1 }
                contacts.remove(at: k)
            }
            if !resting { touches.append(touch) }
        }
        fingersDown = inButtonAreaCount > 0 ? Self.countDown(touches) : 0
        leavesOutButtonArea = inButtonAreaCount > 0 && fingersDown >= 2
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
                notes.append(ContactNote(contacts[k].id, .resting(contacts[k].id, still, landed)))
                continue
            }
            if let zone = settings.thumbZone, still >= settings.thumbTime, frame.device.kind == .touchpad,
               frame.unitsPerMM.y > 0 {
                let fromBottom = (frame.surfaceSize.y - touch.location.y) / frame.unitsPerMM.y
                if fromBottom <= zone {
                    contacts[k].resting = true
                    newlyResting.append(contacts[k].id)
                    notes.append(ContactNote(contacts[k].id, .thumb(contacts[k].id, fromBottom)))
                }
            }
        }
    }

    /// Where a touch is, mm from the surface's top left corner.
    private static func millimetres(_ touch: Touch, _ frame: TouchFrame) -> Point {
        Point(x: frame.unitsPerMM.x > 0 ? touch.location.x / frame.unitsPerMM.x : touch.location.x,
              y: frame.unitsPerMM.y > 0 ? touch.location.y / frame.unitsPerMM.y : touch.location.y)
    }

    /// The surface's size in mm.
    private static func size(_ frame: TouchFrame) -> Point {
        Point(x: frame.unitsPerMM.x > 0 ? frame.surfaceSize.x / frame.unitsPerMM.x : frame.surfaceSize.x,
              y: frame.unitsPerMM.y > 0 ? frame.surfaceSize.y / frame.unitsPerMM.y : frame.surfaceSize.y)
    }

    /// Whether contact `k` is a finger a gesture sees (not resting, not a palm, not lifting).
    private func isFinger(_ k: Int, _ frame: TouchFrame) -> Bool {
        guard !contacts[k].resting && contacts[k].palm == nil else { return false }
        let id = contacts[k].id
        return frame.touches.contains { $0.id == id && !$0.phase.isTerminal }
    }

    /// The palm edge zone a point (mm) is in on this surface, or nil.
    private func palmZone(_ at: Point, size: Point) -> PalmEdge? {
        guard let width = settings.palmEdgeWidth, size.x >= settings.palmEdgeMinimumWidth else { return nil }
        let side = min(width, size.x * 0.08)
        if at.x < side { return .left }
        if at.x > size.x - side { return .right }
        if size.y > settings.palmTopMinimumHeight && at.y < size.y * settings.palmTopFraction { return .top }
        return nil
    }

    /// A contact lands on a touchpad: a palm when it lands in an edge zone with no finger down; a
    /// thumb when it lands in the thumb zone far below two or more fingers already down.
    private mutating func classifyLanding(_ k: Int, _ touch: Touch, _ frame: TouchFrame) {
        let at = Self.millimetres(touch, frame), size = Self.size(frame)
        contacts[k].landedMM = at
        if frame.device.isButtonpad && frame.unitsPerMM.y > 0 {
            let height = Self.buttonAreaHeight(size.y)
            if at.y >= size.y - height {
                contacts[k].buttonArea = true
                inButtonAreaCount += 1
                notes.append(ContactNote(touch.id, .buttonArea(touch.id, height)))
            }
        }
        var fingers = 0
        var lowest = -Double.infinity
        for o in contacts.indices where o != k && isFinger(o, frame) {
            fingers += 1
            if let other = frame.touches.first(where: { $0.id == contacts[o].id }) {
                lowest = max(lowest, Self.millimetres(other, frame).y)
            }
        }
        if fingers == 0, let edge = palmZone(at, size: size) {
            contacts[k].palm = edge
            notes.append(ContactNote(touch.id, .palm(touch.id, edge)))
            return
        }
        if fingers >= 2, let zone = settings.thumbZone, let separation = settings.thumbLandingSeparation {
            let fromBottom = size.y - at.y
            if fromBottom <= zone && at.y - lowest >= separation {
                contacts[k].resting = true
                notes.append(ContactNote(touch.id, .thumbLanded(touch.id, fromBottom, at.y - lowest)))
            }
        }
    }

    /// A palm becomes a finger when another finger is down beside it, or when it leaves its zone soon
    /// after landing, away from its edge (libinput's directions). Its touch then begins here.
    private mutating func releasePalmIfFinger(_ k: Int, _ touch: inout Touch, _ frame: TouchFrame) {
        guard let edge = contacts[k].palm else { return }
        var release: PalmRelease?
        for o in contacts.indices where o != k && isFinger(o, frame) {
            release = .fingerBeside(contacts[o].id)
            break
        }
        if release == nil {
            let ms = touch.time.milliseconds(since: contacts[k].down)
            let at = Self.millimetres(touch, frame)
            if ms < settings.palmEscapeTime ?? .infinity && palmZone(at, size: Self.size(frame)) == nil {
                let d = at - contacts[k].landedMM
                let away: Bool
                switch edge {
                case .left, .right: away = abs(d.x) > abs(d.y) * 0.854  // more than 40.5° off the vertical
                case .top: away = d.y > 0 && abs(d.x) < d.y * 1.171     // within 49.5° of straight down
                }
                if away { release = .leftZone(ms) }
            }
        }
        guard let release else { return }
        contacts[k].palm = nil
        contacts[k].origin = touch.physicalLocation
        contacts[k].down = touch.time
        contacts[k].jumpChecked = true
        touch.phase = .began
        touch.previousLocation = touch.location
        touch.previousPhysicalLocation = touch.physicalLocation
        newlyFingers.append(touch.id)
        notes.append(ContactNote(touch.id, .palmReleased(touch.id, release)))
    }

    /// A contact in the button area counts for motion gestures once it is above the area or moved
    /// more than `buttonAreaMove` mm from where it landed (libinput: it is then in the main area for
    /// good, wherever it goes).
    private mutating func leaveButtonAreaIfOut(_ k: Int, _ touch: Touch, _ frame: TouchFrame) {
        let at = Self.millimetres(touch, frame), size = Self.size(frame)
        let release: ButtonAreaRelease
        let moved = (at - contacts[k].landedMM).length
        if at.y < size.y - Self.buttonAreaHeight(size.y) {
            release = .leftArea
        } else if moved > Self.buttonAreaMove {
            release = .moved(moved)
        } else {
            return
        }
        countFromButtonArea(k, release)
        let landed = contacts[k].down
        for o in contacts.indices where o != k && contacts[o].buttonArea {
            let apart = abs(contacts[o].down.milliseconds(since: landed))
            if apart <= Self.buttonAreaTogether { countFromButtonArea(o, .landedWith(touch.id, apart)) }
        }
    }

    /// Every contact still in the button area counts for motion gestures from this frame, as if it
    /// always had (`EngineLane.endButtonWaitIfLong`).
    mutating func countButtonAreaContacts(waited ms: Double) {
        for k in contacts.indices where contacts[k].buttonArea { countFromButtonArea(k, .waitedOut(ms)) }
        leavesOutButtonArea = false
    }

    /// Contact `k`, in the button area, counts for motion gestures from this frame.
    private mutating func countFromButtonArea(_ k: Int, _ release: ButtonAreaRelease) {
        contacts[k].buttonArea = false
        inButtonAreaCount -= 1
        leftButtonArea = true
        notes.append(ContactNote(contacts[k].id, .buttonAreaLeft(contacts[k].id, release)))
    }

    mutating func reset() {
        inButtonAreaCount = 0
        fingersDown = 0
        leavesOutButtonArea = false
        contacts.clearKeepingCapacity()
        buttonDown = false
    }
}
