extension ConfigurationLoader {
    /// The closest of `candidates` to a mistyped `word`, for "did you mean".
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        YAMLReader.suggestion(for: word, among: candidates)
    }
}
