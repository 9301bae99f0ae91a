import GestureConfig
import GestureCore
import GestureTuning
import GestureYAML

/// Writes the tuned values into a config's text, keeping everything else (comments, order,
/// style) as it was: a value written in the file is replaced where it stands; a value the file
/// left to the default is added to its gesture (a new line under a block gesture, a new first key
/// in a flow `{ ... }` one). Each changed line ends with a comment saying what it was
/// (`# gestured tune: was 3mm`). The result is read back and must give the tuned values.
public enum TunedConfigWriter {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// One value to write.
    public struct Change: Sendable {
        public var gesture: String
        public var key: String
        public var text: String
        public var was: String
    }

    /// The text of a value as the config writes it: `2.5mm`, `350ms`, `12.5deg`.
    public static func valueText(_ value: Double, _ unit: TunableParameter.Unit) -> String {
        switch unit {
        case .mm: return ThresholdFit.decimal(value, places: 1) + "mm"
        case .ms: return ThresholdFit.decimal(value, places: 0) + "ms"
        case .deg: return ThresholdFit.decimal(value, places: 1) + "deg"
        }
    }

    public static func changes(_ proposals: [ThresholdProposal]) -> [Change] {
        proposals.filter { $0.outcome == .changed }.map {
            Change(gesture: $0.gesture, key: $0.parameter.key, text: valueText($0.proposed, $0.parameter.unit),
                   was: valueText($0.current, $0.parameter.unit))
        }
    }

    private struct Edit {
        var line: Int
        var column: Int
        /// Characters replaced at `column` (0: an insertion).
        var length: Int
        var text: String
    }

    /// `source` with the changes written in. Throws when the file's shape leaves no place to write one.
    public static func rewrite(_ source: String, changes: [Change]) throws(Failure) -> String {
        let root: Node?
        do { root = try YAMLComposer.compose(source) } catch { throw Failure(description: "cannot read the config: \(error)") }
        guard let gestures = root?.mapping?["gestures"]?.sequence else {
            throw Failure(description: "the config has no 'gestures' list to write the tuned values into")
        }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var edits: [Edit] = []
        var newLines: [(after: Int, text: String)] = []
        var comments: [Int: [String]] = [:]
        for change in changes {
            guard let gesture = gestures.items.compactMap(\.mapping).first(where: { $0["id"]?.string == change.gesture }),
                  let start = gesture.mark else {
                throw Failure(description: "gesture '\(change.gesture)' is not in the config's 'gestures' list")
            }
            let note = "gestured tune: \(change.key) was \(change.was)"
            if let pair = gesture.pairs.first(where: { $0.key.string == change.key }) {
                guard let scalar = pair.value.scalar, let mark = scalar.mark,
                      scalar.style != .literal, scalar.style != .folded else {
                    throw Failure(description: "'\(change.key)' of gesture '\(change.gesture)' is not a one-line value")
                }
                let quotes = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 2 : 0
                let length = sourceLength(of: scalar, in: lines[mark.line - 1], from: mark.column - 1) ?? scalar.string.count + quotes
                edits.append(Edit(line: mark.line, column: mark.column, length: length, text: change.text))
                comments[mark.line, default: []].append(note)
            } else if character(at: start, in: lines) == "{" {
                edits.append(Edit(line: start.line, column: start.column + 1, length: 0, text: " \(change.key): \(change.text),"))
                comments[start.line, default: []].append(note + " (the default)")
            } else {
                // A block mapping: a new line under the first key whose value sits on its line.
                guard let anchor = gesture.pairs.first(where: {
                    $0.value.scalar != nil && $0.key.mark?.line == $0.value.mark?.line
                }), let keyMark = anchor.key.mark else {
                    throw Failure(description: "gesture '\(change.gesture)' has no one-line key to write '\(change.key)' under")
                }
                let indent = String(repeating: " ", count: keyMark.column - 1)
                newLines.append((keyMark.line, "\(indent)\(change.key): \(change.text)  # \(note) (the default)"))
            }
        }
        // Right to left within a line, so earlier columns stay valid.
        for edit in edits.sorted(by: { ($0.line, $0.column) > ($1.line, $1.column) }) {
            var chars = Array(lines[edit.line - 1])
            let from = edit.column - 1
            chars.replaceSubrange(from..<min(chars.count, from + edit.length), with: Array(edit.text))
            lines[edit.line - 1] = String(chars)
        }
        for (line, notes) in comments {
            let text = notes.joined(separator: "; ")
            if lines[line - 1].contains(" #") {
                lines[line - 1] += " (\(text))"
            } else {
                lines[line - 1] += "  # \(text)"
            }
        }
        for insertion in newLines.enumerated().sorted(by: { ($0.element.after, $0.offset) > ($1.element.after, $1.offset) }) {
            lines.insert(insertion.element.text, at: insertion.element.after)
        }
        return lines.joined(separator: "\n")
    }

    static func character(at mark: Mark, in lines: [String]) -> Character? {
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let chars = Array(lines[mark.line - 1])
        return mark.column >= 1 && mark.column <= chars.count ? chars[mark.column - 1] : nil
    }

    /// How many characters a one-line scalar takes where it is written (its quotes included).
    static func sourceLength(of scalar: Node.Scalar, in line: String, from column: Int) -> Int? {
        let chars = Array(line)
        guard column < chars.count else { return nil }
        switch scalar.style {
        case .singleQuoted, .doubleQuoted:
            let quote = chars[column]
            var i = column + 1
            while i < chars.count {
                if chars[i] == "\\" && quote == "\"" { i += 2; continue }
                if chars[i] == quote {
                    if quote == "'" && i + 1 < chars.count && chars[i + 1] == "'" { i += 2; continue }
                    return i - column + 1
                }
                i += 1
            }
            return nil
        default:
            // A plain scalar ends before `,`, `}`, `]` in flow context, or ` #`, or at the end of the line.
            let text = scalar.string
            let candidate = String(chars[column..<min(chars.count, column + text.count)])
            return candidate == text ? text.count : nil
        }
    }

    /// Rewrites and checks: the written text must load and give every tuned value.
    public static func write(_ source: String, file: String, proposals: [ThresholdProposal]) throws(Failure) -> String {
        let text = try rewrite(source, changes: changes(proposals))
        let loaded: Configuration
        do { loaded = try ConfigurationLoader.parse(text, file: file) } catch {
            throw Failure(description: "the tuned config does not load (this is a bug in gestured tune):\n\(error)")
        }
        for p in proposals where p.outcome == .changed {
            guard let spec = loaded.engine.recognizers.first(where: { $0.id == p.gesture }),
                  abs(p.parameter.value(in: spec.parameters) - p.proposed) < 1e-9 else {
                throw Failure(description: "the tuned config does not give \(p.gesture) \(p.parameter.key) \(valueText(p.proposed, p.parameter.unit)) (this is a bug in gestured tune)")
            }
        }
        return text
    }
}
