import Testing
import GestureCore
@testable import GestureConfig

/// Regions and gestures of socket requests, read with the config file's rules, errors as paths.
@Suite struct RequestReaderTests {
    func errors(_ line: String) -> [String] {
        if case .failure(let e) = RequestReader.attachment(line, parent: "screen") { return e.errors }
        return []
    }

    @Test func anAttachReadsLikeTheConfigFile() throws {
        let line = #"{"request":"attach","regions":{"id":"kb","frame":[0,"60%","100%","40%"],"publish-touches":true,"#
            + #""children":[{"id":"k1","frame":[0,0,40,40],"control":true,"min-hit-size":[48,48]}]},"#
            + #""gestures":[{"id":"press","kind":"tap","region":"k1","require-to-fail":["double"]},"#
            + #"{"id":"double","kind":"tap","taps":2,"max-interval":"250ms"},{"id":"fling","kind":"swipe","directions":"horizontal"}]}"#
        let a = try RequestReader.attachment(line, parent: "screen").get()
        #expect(a.region.id == "kb")
        #expect(a.region.frame.y == .percent(60))
        #expect(a.region.publishesTouches)
        #expect(a.region.children.first?.isControl == true)
        #expect(a.region.children.first?.minimumHitSize == Point(x: 48, y: 48))
        #expect(a.recognizers.map(\.id) == ["press", "double", "fling"])
        #expect(a.recognizers[0].region == "k1")
        #expect(a.recognizers[1].region == "kb")  // default: the attached root
        #expect(a.recognizers[1].parameters.tapInterval == 250)
        #expect(a.recognizers[2].parameters.directions == [.left, .right])
    }

    @Test func everyErrorNamesItsPathInTheRequest() {
        let line = #"{"request":"attach","regions":{"id":"kb","colour":"red","children":[{"id":"a","frame":[0,0,1,1]},"#
            + #"{"id":"b","frame":[10,0]}]},"gestures":[{"id":"g","kind":"tap","region":"nowhere"},"#
            + #"{"id":"h","kind":"pan","threshold":"3kg","require-to-fail":["g","zz"]}]}"#
        let found = errors(line)
        let paths = found.map { String($0.prefix { $0 != ":" }) }
        #expect(paths.sorted() == ["gestures[0].region", "gestures[1].require-to-fail[1]", "gestures[1].threshold",
                                   "regions.children[1].frame", "regions.colour"], "\(found)")
        #expect(found.contains { $0.hasPrefix("regions.children[1].frame: ") && $0.hasSuffix("needs 4 items [x, y, width, height], got 2") })
        #expect(found.contains { $0.hasPrefix("regions.colour: unknown key 'colour'") })
    }

    @Test func updatesAndBrokenRequestsAreReadToo() throws {
        let change = try RequestReader.regionChange(#"{"request":"update","region":"kb","frame":[1,2,3,"4%"],"hidden":true}"#,
                                                    id: "kb").get()
        #expect(change.frame?.height == .percent(4))
        #expect(change.hidden == true)
        #expect(change.interactive == nil)
        guard case .failure(let e) = RequestReader.regionChange(#"{"request":"update","interactive":"maybe"}"#, id: "kb") else {
            Issue.record("accepted")
            return
        }
        #expect(e.errors == ["interactive: expected true or false for 'interactive' in region 'kb', got 'maybe'"])
        #expect(errors(#"{"request":"attach"}"#).first?.hasPrefix("request: missing key 'regions'") == true)
        #expect(errors(#"{"request":"attach","regions":[]}"#).first?.hasPrefix("regions: ") == true)
    }
}
