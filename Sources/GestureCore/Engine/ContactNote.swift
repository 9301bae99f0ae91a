/// What the contact hygiene (ContactHygiene.swift) says about single contacts: its explain lines'
/// notes, and why a palm or a finger in a clickpad's button area counts again.

/// A note about one contact, for explain lines.
enum ContactNote: Sendable, Hashable {
    /// The first-contact jump: distance (mm) and time since touch-down (ms).
    case landingJump(TouchID, Double, Double)
    /// A contact resting: still for (ms) when another (id) landed.
    case resting(TouchID, Double, TouchID)
    /// A resting thumb in the bottom zone: its distance from the edge (mm).
    case thumb(TouchID, Double)
    /// A thumb from its landing: its distance from the bottom edge and how far below the lowest
    /// other finger it landed (mm).
    case thumbLanded(TouchID, Double, Double)
    /// A palm: landed in this edge zone with no finger down.
    case palm(TouchID, PalmEdge)
    /// A palm that is a finger from now on, and why.
    case palmReleased(TouchID, PalmRelease)
    /// Landed in a clickpad's bottom button area, this many mm high (`buttonAreaHeight`).
    case buttonArea(TouchID, Double)
    /// Counts for motion gestures from now on, and why.
    case buttonAreaLeft(TouchID, ButtonAreaRelease)
}

/// Why a contact that landed in a clickpad's button area counts for motion gestures now.
enum ButtonAreaRelease: Sendable, Hashable {
    /// It left the area (upward).
    case leftArea
    /// It moved this many mm (more than `ContactHygiene.buttonAreaMove`) from where it landed.
    case moved(Double)
    /// It landed within `ContactHygiene.buttonAreaTogether` (this many ms) of the contact (id) that
    /// just left the area or moved: fingers that land together are one gesture's.
    case landedWith(TouchID, Double)
    /// The other fingers' gesture went on this many ms without it (`EngineLane.buttonWaitLimit`): it
    /// counts with them, as if it always had.
    case waitedOut(Double)
}

/// The palm edge zone a contact landed in.
enum PalmEdge: String, Sendable, Hashable {
    case left, right, top
}

/// Why a palm became a finger.
enum PalmRelease: Sendable, Hashable {
    /// It left its zone, away from the edge, this many ms after landing.
    case leftZone(Double)
    /// Another finger is down beside it (libinput: palms never stop a two-finger scroll).
    case fingerBeside(TouchID)
}
