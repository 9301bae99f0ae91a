import GestureCore

/// Words people write for a value the schema names otherwise, for "did you mean": other tools'
/// names for a gesture kind (`zoom` for a pinch), a state, a direction (docs/configuration.md,
/// "Errors"). Keys are compact (lower case, no `-`, `_` or spaces); values are the schema's names.
enum ConfigWords {
    static let kinds: [String: String] = [
        "zoom": "pinch", "scale": "pinch", "spread": "pinch", "magnify": "pinch", "pinchzoom": "pinch",
        "scroll": "pan", "drag": "pan", "move": "pan", "slide": "pan", "twofingerscroll": "pan",
        "hold": "long-press", "press": "long-press", "longpress": "long-press", "longtap": "long-press",
        "taphold": "long-press", "tapandhold": "long-press", "presshold": "long-press",
        "rotate": "rotation", "twist": "rotation", "turn": "rotation", "spin": "rotation",
        "flick": "swipe", "fling": "swipe", "swype": "swipe",
        "edge": "edge-pan", "edgeswipe": "edge-pan", "screenedgepan": "edge-pan", "edgepan": "edge-pan",
        "click": "tap", "touch": "tap", "doubletap": "tap", "doubleclick": "tap", "multitap": "tap",
    ]

    static let states: [String: String] = [
        "begin": "began", "begun": "began", "start": "began", "started": "began", "down": "began",
        "change": "changed", "update": "changed", "updated": "changed", "move": "changed", "moved": "changed",
        "progress": "changed",
        "end": "ended", "finish": "ended", "finished": "ended", "done": "ended", "stop": "ended", "up": "ended",
        "release": "ended", "completed": "ended",
        "cancel": "cancelled", "canceled": "cancelled", "abort": "cancelled", "aborted": "cancelled",
        "recognize": "recognized", "recognised": "recognized", "fired": "recognized", "trigger": "recognized",
        "triggered": "recognized", "detected": "recognized",
    ]

    static let directions: [String: String] = [
        "horizontally": "horizontal", "sideways": "horizontal", "leftright": "horizontal", "x": "horizontal",
        "vertically": "vertical", "updown": "vertical", "y": "vertical",
        "any": "all", "every": "all", "both": "all", "anydirection": "all", "*": "all",
        "north": "up", "south": "down", "west": "left", "east": "right",
        "l": "left", "r": "right", "u": "up", "d": "down",
    ]

    static let edges: [String: String] = [
        "any": "all", "every": "all", "*": "all", "north": "top", "up": "top",
        "south": "bottom", "down": "bottom", "west": "left", "east": "right",
        "leftedge": "left", "rightedge": "right", "topedge": "top", "bottomedge": "bottom",
    ]

    /// Keys other tools use in a binding (a launcher's `exec` or `cmd`; Touchégg's `action` is read as
    /// gestured's own `action` key, whose error names 'command').
    static let bindingKeys: [String: String] = [
        "exec": "command", "cmd": "command", "run": "command", "shell": "command",
        "execute": "command", "script": "command", "sh": "command",
        "key": "keys", "shortcut": "keys", "keystroke": "keys", "hotkey": "keys", "keycombo": "keys",
        "state": "states", "on": "states", "when": "states", "gestures": "gesture", "id": "gesture",
    ]

    /// Keys other tools use for a parameter of a kind (UIKit's, Touchégg's, libinput's words).
    static func gestureKeys(_ kind: RecognizerKind) -> [String: String] {
        switch kind {
        case .longPress:
            ["duration": "min-duration", "holdtime": "min-duration", "holdduration": "min-duration",
             "delay": "min-duration", "time": "min-duration", "minimumpressduration": "min-duration",
             "allowablemovement": "movement", "finger": "fingers", "touches": "fingers"]
        case .tap:
            ["duration": "max-duration", "count": "taps", "tapcount": "taps", "numberoftaps": "taps",
             "numberoftapsrequired": "taps", "finger": "fingers", "touches": "fingers"]
        case .swipe:
            ["direction": "directions", "duration": "max-duration", "distance": "min-distance",
             "finger": "fingers", "touches": "fingers"]
        case .edgePan:
            ["edge": "edges", "direction": "edges", "finger": "fingers", "touches": "fingers"]
        case .pan:
            ["finger": "fingers", "touches": "fingers", "minimumnumberoftouches": "min-fingers",
             "maximumnumberoftouches": "max-fingers", "distance": "threshold"]
        case .pinch, .rotation:
            ["distance": "threshold", "angle": "threshold"]
        }
    }

    /// A kind written as other tools name gestures, with its finger count, direction or edge
    /// (`three-finger-swipe`, `swipe_left`, `bottom-edge`), as the keys of this schema:
    /// `kind: swipe, fingers: 3`. Nil for a single word (the suggestion by word or spelling).
    static func kindPhrase(_ text: String) -> String? {
        let numbers = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5]
        let sides = ["left": "left", "right": "right", "up": "up", "down": "down", "top": "up", "bottom": "down"]
        // Words, split at anything but letters and digits, and between digits and letters ("3finger").
        // Camel case too ("3FingerSwipe").
        var words: [String] = []
        var current = ""
        for c in text {
            let isDigit = c.isNumber, isLetter = c.isLetter
            let startsWord = !current.isEmpty && (current.last!.isNumber != isDigit || (c.isUppercase && current.last!.isLowercase))
            if !(isDigit || isLetter) || startsWord {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = isDigit || isLetter ? String(c) : ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        guard words.count >= 2 else { return nil }
        var kind: String?
        var fingers: Int?
        var side: String?
        var edge = false
        for word in words {
            if let n = numbers[word] ?? Int(word), (1...5).contains(n) {
                fingers = n
            } else if ["finger", "fingers", "f", "gesture"].contains(word) {
                continue
            } else if word == "edge" || word == "edges" {
                edge = true
            } else if let s = sides[word] {
                side = s
            } else if let k = RecognizerKind(rawValue: word)?.rawValue ?? kinds[word] {
                kind = k
            } else {
                return nil
            }
        }
        if edge { kind = "edge-pan" }
        guard let kind else { return nil }
        var parts = ["kind: \(kind)"]
        if let fingers, kind != "pinch" && kind != "rotation" { parts.append("fingers: \(fingers)") }
        if let side {
            if kind == "edge-pan" {
                let edges = ["up": "top", "down": "bottom"][side] ?? side
                parts.append("edges: [\(edges)]")
            } else if kind == "swipe" {
                parts.append("directions: [\(side)]")
            }
        }
        return parts.count > 1 ? parts.joined(separator: ", ") : nil
    }

    /// Lower case without `-`, `_` and spaces.
    static func compact(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// The name meant by `text`, which is none of `names`: the same name spelled differently
    /// (`long_press`), else the nearest of the names and the known words by edit distance (a known
    /// word itself is at distance 0).
    static func suggestion(for text: String, among names: [String], words: [String: String]) -> String? {
        let word = compact(text)
        if let same = names.first(where: { compact($0) == word }) { return same }
        let known = words.filter { names.contains($0.value) }
        guard let near = YAMLReader.suggestion(for: word, among: names + known.keys.sorted()) else { return nil }
        return known[near] ?? near
    }
}
