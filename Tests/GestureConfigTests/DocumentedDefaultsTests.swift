import Testing
@testable import GestureConfig
import GestureCore

/// The defaults tables of docs/configuration.md and docs/recognizers.md are the code's: a key
/// written with its documented default gives the same configuration as the key left out, and every
/// core default recognizers.md names is `RecognizerParameters()`'s.
@Suite struct DocumentedDefaultsTests {
    /// One row of a `| key | type | default | meaning |` table: its keys, its default cell, where.
    struct Row {
        var keys: [String]
        var value: String
        var section: String
        var line: Int
        var meaning: String
    }

    /// The config a row's key sits in, with `KEY: VALUE` where the key goes; nil: a section whose
    /// table the test does not know (a new section must be added here).
    static func template(section: String, keys: [String]) -> String? {
        let gesture = "gestures:\n  - { id: g, kind: KIND, KEY: VALUE }\n"
        switch section {
        case "## Top level": return "KEY: VALUE\n"
        case "## devices": return "devices: { KEY: VALUE }\n"
        case "## surfaces": return "surfaces:\n  - { KEY: VALUE }\n"
        case "## regions": return "regions:\n  id: screen\n  children:\n    - { id: r, KEY: VALUE }\n"
        case "### Keys every kind has": return gesture.replacing("KIND", with: "tap")
        case "## windows": return "windows:\n  - { id: w, KEY: VALUE, disable: \"*\" }\n"
        case "## bindings" where keys == ["commands"]:
            return "gestures: [{ id: g, kind: tap }]\nbindings:\n  max-concurrent: 2\n  KEY: VALUE\n"
        case "## bindings":
            return "gestures: [{ id: g, kind: tap }]\nbindings:\n  KEY: VALUE\n  commands:\n    - { gesture: g, command: \"true\" }\n"
        case "## bindings, one binding":
            return "gestures: [{ id: g, kind: tap }]\nbindings:\n  - { gesture: g, command: \"true\", KEY: VALUE }\n"
        case "## socket": return "socket: { KEY: VALUE }\n"
        default:
            if section.hasPrefix("kind ") { return gesture.replacing("KIND", with: String(section.dropFirst(5))) }
            return nil
        }
    }

    /// Every row of every defaults table of docs/configuration.md, with its section: the last `##` /
    /// `###` heading, or `kind K` after a `**K** —` line (the parameters per kind).
    static func rows() throws -> [Row] {
        let text = try #require(readText(Repository.root + "/docs/configuration.md"))
        var rows: [Row] = []
        var section = ""
        var inTable = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("## ") || line.hasPrefix("### ") { section = String(line) }
            if line.hasPrefix("**"), let end = line.dropFirst(2).firstIndex(of: "*"), line.contains("** —") {
                section = "kind " + line[line.index(line.startIndex, offsetBy: 2)..<end]
            }
            if line.hasPrefix("| key | type | default |") { inTable = true; continue }
            guard inTable, line.hasPrefix("|") else { inTable = false; continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmedSpaces
            }
            guard cells.count >= 4, !cells[0].hasPrefix("---") else { continue }
            let keys = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            var rowSection = section
            if section == "## bindings" && !cells[3].hasPrefix("(long form)") { rowSection = "## bindings, one binding" }
            rows.append(Row(keys: keys, value: cells[2], section: rowSection, line: index + 1, meaning: cells[3]))
        }
        return rows
    }

    /// The YAML a default cell stands for, or nil when the cell describes the default in words
    /// ("required", "none", "the device's size", "as tap").
    static func literal(_ cell: String) -> String? {
        let bare = cell.hasPrefix("`") && cell.hasSuffix("`") && cell.count > 2 ? String(cell.dropFirst().dropLast()) : cell
        if bare.contains("`") { return nil }
        if bare.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?(mm|ms|s|deg|%)?/) != nil { return bare }
        if bare.wholeMatch(of: /\[[a-z0-9, -]*\]/) != nil { return bare }
        if bare.wholeMatch(of: /true|false|automatic|discrete|continuous/) != nil { return bare }
        return nil
    }

    @Test func everyLiteralDefaultOfConfigurationMdIsTheDefault() throws {
        var checked = 0
        for row in try Self.rows() {
            let place = "docs/configuration.md:\(row.line) (\(row.section))"
            try #require(Self.template(section: row.section, keys: row.keys) != nil,
                         "\(place): a defaults table in a section DocumentedDefaultsTests does not know: add its template")
            guard let value = Self.literal(row.value), let template = Self.template(section: row.section, keys: row.keys) else { continue }
            for key in row.keys {
                let omitted = template.replacing("KEY: VALUE, ", with: "").replacing(", KEY: VALUE", with: "")
                    .replacing("{ KEY: VALUE }", with: "{}").replacing("  KEY: VALUE\n", with: "")
                    .replacing("KEY: VALUE\n", with: "")
                let written = template.replacing("KEY", with: key).replacing("VALUE", with: value)
                let without: Configuration
                var with: Configuration
                do throws(ConfigErrors) {
                    without = try ConfigurationLoader.parse(omitted, file: "config.yaml")
                    with = try ConfigurationLoader.parse(written, file: "config.yaml")
                } catch {
                    Issue.record("\(place): `\(key): \(value)` (the documented default) is refused:\n\(error.errors.map(\.description).joined(separator: "\n"))\n\(written)")
                    continue
                }
                // On a forwarded device a written `cancels-touches` (either value) also says whether the
                // gesture takes touches from the desktop (docs/forwarding.md, "Who takes a touch"); the
                // table says so.
                if key == "cancels-touches", var spec = with.engine.recognizers.first {
                    #expect(row.meaning.contains("forwarded device") && row.meaning.contains("forwarding.md"),
                            "\(place): `cancels-touches` written changes what a forwarded device's gesture takes; the row must say so")
                    spec.claimsForwarded = without.engine.recognizers.first?.claimsForwarded ?? false
                    with.engine.recognizers = [spec]
                }
                #expect(with == without, "\(place): `\(key)` documented default \(value) is not what leaving it out gives:\n\(written)")
                checked += 1
            }
        }
        // Tap's six, long-press's four, pan's three, swipe's six, pinch, rotation's two, edge-pan's three,
        // the common keys, devices, regions, bindings and socket: dozens.
        #expect(checked >= 45, "only \(checked) documented defaults checked")
    }

    /// The recognizer parameter a docs/recognizers.md row names (`tapMovement`), read from a default
    /// `RecognizerParameters()` as text: numbers as the table writes them, sets of names sorted.
    static func coreDefault(_ name: String) -> String? {
        let defaults = RecognizerParameters()
        guard let child = Mirror(reflecting: defaults).children.first(where: { $0.label == name }) else { return nil }
        switch child.value {
        case let number as Double: return number == number.rounded() ? String(Int(number)) : String(number)
        case let number as Int: return String(number)
        case let directions as Set<SwipeDirection>: return directions.map(\.rawValue).sorted().joined(separator: ", ")
        case let edges as Set<Edge>: return edges.map(\.rawValue).sorted().joined(separator: ", ")
        case let style as SwipeStyle: return style.rawValue
        default: return "\(child.value)"
        }
    }

    @Test func everyCoreDefaultOfRecognizersMdIsRecognizerParameters() throws {
        let text = try #require(readText(Repository.root + "/docs/recognizers.md"))
        var checked = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmedSpaces }
            guard cells.count >= 2 else { continue }
            // `a` (…) / `b`: the names before the first parenthesis.
            let head = cells[0].split(separator: " (").first.map(String.init) ?? cells[0]
            let names = head.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let place = "docs/recognizers.md:\(index + 1)"
            switch names {
            case ["settleTime"]:
                #expect(cells[1].contains("**\(Int(RecognizerParameters.defaultSettleTime(for: .touchscreen))) ms on touchscreens, "
                                          + "\(Int(RecognizerParameters.defaultSettleTime(for: .touchpad))) ms on touchpads**"), "\(place)")
                #expect(cells[1].contains("**\(Int(RecognizerParameters().settleDistance)) mm on touchscreens, "
                                          + "\(Int(RecognizerParameters().touchpadSettleDistance)) mm on touchpads**"), "\(place)")
                checked += 1
                continue
            case ["style"]:
                #expect(SwipeStyle.automatic.resolved(for: .touchpad) == .continuous && SwipeStyle.automatic.resolved(for: .touchscreen) == .discrete
                        && cells[1].contains("continuous on touchpads, discrete elsewhere"), "\(place)")
                checked += 1
                continue
            default: break
            }
            // The documented values, in the order of the names: "**5 mm**", "1, 1", "1 / 10", "right".
            let values = cells[1].replacing("*", with: "").split(whereSeparator: { $0 == "," || $0 == "/" })
                .map { $0.trimmedSpaces.replacing(/\s*(mm|ms|°)$/, with: "") }
            #expect(values.count == names.count, "\(place): \(names) but defaults \(values)")
            for (name, value) in zip(names, values) {
                let code = try #require(Self.coreDefault(name), "\(place): `\(name)` is not a RecognizerParameters property")
                #expect(code == value, "\(place): `\(name)` is documented as \(value) but RecognizerParameters() has \(code)")
                checked += 1
            }
        }
        #expect(checked >= 23, "only \(checked) core defaults checked in docs/recognizers.md")
    }

    /// A line of the docs that lists the recognizer kinds (it names `tap`, `long-press` and `edge-pan`
    /// in code quotes) lists every one: a new kind shows which page to add it to.
    @Test func everyListOfKindsInTheDocsHasEveryKind() throws {
        var lists = 0
        for document in ["docs/configuration.md", "docs/protocol.md", "README.md", "clients/python/README.md"] {
            let text = try #require(readText(Repository.root + "/" + document))
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("`tap`") && line.contains("`long-press`") && line.contains("`edge-pan`") {
                let missing = RecognizerKind.allCases.filter { !line.contains("`\($0.rawValue)`") }.map(\.rawValue)
                #expect(missing.isEmpty, "\(document):\(index + 1) lists the recognizer kinds without \(missing)")
                lists += 1
            }
        }
        #expect(lists >= 2, "the kind lists of configuration.md (gestures) and protocol.md (subscribe) were not found")
    }
}

extension StringProtocol {
    /// Without the spaces at either end.
    var trimmedSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
