/// What the contact hygiene (ContactHygiene.swift) says about single contacts: its explain lines'
/// notes, and why a palm or a finger in a clickpad's button area counts again.

/// A note about one contact, for explain lines: the contact and what the hygiene decided about it,
/// in the engine's vocabulary of reasons (`Reason`'s hygiene cases: a landing jump, a resting
/// contact or thumb, a palm and its release, a finger in a clickpad's button area and why it counts).
struct ContactNote: Sendable, Hashable {
    let id: TouchID
    let reason: Reason

    init(_ id: TouchID, _ reason: Reason) {
        self.id = id
        self.reason = reason
    }
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
