import GestureCore
import GestureDesktop
import Testing

@Suite struct DesktopJSONTests {
    @Test func readsValuesKeysInOrderAndEscapes() throws {
        let value = try DesktopJSON(parsing: #"{"b":[1,-2.5e1,true,null],"a":"\u00e9\ud83d\ude00\n","c":{}}"#)
        #expect(value.fields?.map(\.0) == ["b", "a", "c"])
        #expect(value["b"] == .array([.number(1), .number(-25), .bool(true), .null]))
        #expect(value["a"]?.string == "é😀\n")
        #expect(value["c"] == .object([]))
    }

    @Test(arguments: ["", "{", "[1,", #"{"a":}"#, #"{"a" 1}"#, "tru", #""abc"#, "[1 2]", "{}x", "\u{0}", "-", "1e9999e"])
    func garbageAndTruncatedTextAreErrors(_ text: String) {
        #expect(throws: DesktopJSON.SyntaxError.self) { try DesktopJSON(parsing: text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: DesktopJSON.SyntaxError.self) { try DesktopJSON(parsing: deep) }
        let fine = String(repeating: "[", count: DesktopJSON.maximumDepth) + String(repeating: "]", count: DesktopJSON.maximumDepth)
        #expect((try? DesktopJSON(parsing: fine)) != nil)
    }

    @Test func everyPrefixOfARealReplyIsAnError() throws {
        let bytes = try Fixtures.bytes("sway-tiled-floating-tree.json")
        let full = try DesktopJSON(parsing: bytes)
        #expect(full["type"]?.string == "root")
        let trimmed = Array(bytes.reversed().drop { $0 == 10 || $0 == 32 }.reversed())
        for end in stride(from: 0, to: trimmed.count - 1, by: 7) {
            #expect(throws: DesktopJSON.SyntaxError.self) { try DesktopJSON(parsing: trimmed[0..<end]) }
        }
    }

    @Test func numbersThatAreNotFiniteAreNotNumbers() throws {
        #expect(try DesktopJSON(parsing: "1e400").number == nil)
        #expect(try DesktopJSON(parsing: "12").int == 12)
    }
}
