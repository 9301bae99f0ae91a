import Testing
import GestureCore
@testable import GestureReport

@Suite struct GoldenComparisonTests {
    static func tap(_ ms: Int64, taps: Int = 1, id: String = "tap") -> String {
        GestureEvent(gesture: id, kind: .tap, state: .recognized, time: Timestamp(microseconds: 10_000_000 + ms * 1000),
                     device: "D", region: "screen", fingers: 1, taps: taps, location: Point(x: 1, y: 2)).jsonLine
    }
    static let golden = [tap(100), tap(400, taps: 2, id: "double-tap"), tap(900)]

    @Test func equalLinesAreEqual() {
        let c = GoldenComparison(expected: Self.golden, actual: Self.golden)
        #expect(c.isEqual)
        #expect(c.report(file: "g.jsonl") == "g.jsonl: as expected (3 lines)")
    }

    @Test func oneChangedValueNamesItsLineGestureTimeAndKey() {
        var actual = Self.golden
        actual[1] = Self.tap(400, taps: 3, id: "double-tap")
        let c = GoldenComparison(expected: Self.golden, actual: actual)
        #expect(!c.isEqual)
        #expect(c.steps == [.same(expected: 0, actual: 0), .changed(expected: 1, actual: 1), .same(expected: 2, actual: 2)])
        let report = c.report(file: "g.jsonl", origin: Timestamp(microseconds: 10_000_000))
        #expect(report.contains("g.jsonl: the replay differs from the expected output: 1 line differ"), "\(report)")
        #expect(report.contains("line 2: ~ changed     double-tap tap recognized at 400 ms, 1 finger"), "\(report)")
        #expect(report.contains("taps: expected 2, replayed 3"), "\(report)")
    }

    @Test func missingAndUnexpectedLinesAreShownAsSuch() {
        let actual = [Self.tap(100), Self.tap(900), Self.tap(950, id: "extra")]
        let c = GoldenComparison(expected: Self.golden, actual: actual)
        let report = c.report(file: "g.jsonl", origin: Timestamp(microseconds: 10_000_000))
        #expect(report.contains("line 2: - missing     double-tap tap recognized at 400 ms"), "\(report)")
        #expect(report.contains("after line 3: + unexpected  extra tap recognized at 950 ms"), "\(report)")
        #expect(c.differenceCount == 2)
    }

    @Test func theReportStopsAfterItsLimit() {
        let actual = (0..<20).map { Self.tap(Int64($0) * 10, id: "x\($0)") }
        let report = GoldenComparison(expected: [], actual: actual).report(file: "g", limit: 5)
        #expect(report.split(separator: "\n").count == 7, "\(report)")
        #expect(report.hasSuffix("… and 15 more"))
    }

    @Test func jsonFieldsAreSplitAtTheTopLevelOnly() {
        let fields = JSONFields.parse(#"{"a":1,"b":{"x":1,"y":[2,3]},"c":"q,\"}"}"#)
        #expect(fields?.map(\.key) == ["a", "b", "c"])
        #expect(fields?.map(\.value) == ["1", #"{"x":1,"y":[2,3]}"#, #""q,\"}""#])
        #expect(JSONFields.parse("[1]") == nil)
    }

    @Test func goldenFileTextIgnoresBlankLinesAndCarriageReturns() {
        #expect(GoldenComparison.lines(of: "a\r\n\nb\n  \n") == ["a", "b"])
    }
}
