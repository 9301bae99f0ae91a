import Foundation
import Testing
@testable import GestureTuning

/// docs/configuration.md "Sane ranges" and the fit's own ranges are one table.
@Suite struct SaneRangeDocumentationTests {
    @Test func theDocumentedRangesAreTheFitsRanges() throws {
        let text = try String(contentsOfFile: Fixture.root + "/docs/configuration.md", encoding: .utf8)
        let after = try #require(text.components(separatedBy: "### Sane ranges").dropFirst().first)
        let section = after.components(separatedBy: "\n#").first ?? after
        var documented: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| ") && line.contains("…") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0] + " " + cells[1].replacingOccurrences(of: "`", with: "")] = cells[2]
        }
        #expect(documented.count == TunableParameter.allCases.count)
        for p in TunableParameter.allCases {
            let unit = p.unit == .deg ? "deg" : p.unit.rawValue
            let range = "\(ThresholdFit.decimal(p.saneRange.lowerBound, places: 1))\(unit) … \(ThresholdFit.decimal(p.saneRange.upperBound, places: 1))\(unit)"
            #expect(documented["\(p.kind.rawValue) \(p.key)"] == range, "\(p.name)")
        }
    }
}
