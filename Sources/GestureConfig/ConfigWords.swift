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
    ]

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
