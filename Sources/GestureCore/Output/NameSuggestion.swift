/// "Did you mean": the configured name nearest to a mistyped one, by edit distance (at most a third
/// of the word's length, 1 to 3 edits). Shared by the config reader, the daemon's `subscribe` check and
/// `gesturectl`.
public enum NameSuggestion {
    public static func nearest(to word: String, among names: some Sequence<String>) -> String? {
        let limit = max(1, min(3, word.count / 3))
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(Array(word.lowercased()), Array(name.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    /// `unknown gesture 'tapp' (did you mean 'tap'?)`, or the names defined when none is near.
    public static func unknown(_ what: String, _ name: String, among names: [String]) -> String {
        if let near = nearest(to: name, among: names) { return "unknown \(what) '\(name)' (did you mean '\(near)'?)" }
        let plural = what + "s"
        return "unknown \(what) '\(name)'" + (names.isEmpty ? ": the config defines no \(plural)"
                                               : "; the config's \(plural): \(names.joined(separator: ", "))")
    }

    /// The Levenshtein distance between two words.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
