import Foundation
import GestureCore
import Testing

/// The byte-level JSON writer: exact number and escape formats, and lines any JSON parser reads back.
@Suite struct JSONLineTests {
    @Test func numbersHaveAtMostSixDecimalsAndNoTrailingZeros() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (1.5, "1.5"), (0.000005, "0.000005"),
            (0.0000004, "0"), (123456.789, "123456.789"), (-2.25, "-2.25"), (1330495944.417034, "1330495944.417034"),
            (0.1 + 0.2, "0.3"), (99.9999999, "100"), (.nan, "null"), (.infinity, "null"),
        ]
        for (value, text) in cases { #expect(JSONLine.number(value) == text, "\(value)") }
        #expect(JSONLine.number(1e16) == String(1e16))
    }

    @Test func integersAtTheirLimits() {
        var j = JSONLine()
        j.add("min", Int.min)
        j.add("max", Int.max)
        j.add("zero", 0)
        j.add("u", UInt64.max)
        #expect(j.line == #"{"min":-9223372036854775808,"max":9223372036854775807,"zero":0,"u":18446744073709551615}"#)
    }

    @Test func stringsAreEscapedAndReadBackExactly() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t cr \r bell \u{07} nul \u{00} é 👍 日本"
        #expect(JSONLine.quoted("a\"b\\c\n\u{01}") == #""a\"b\\c\n\u0001""#)
        var j = JSONLine()
        j.add("s", tricky)
        j.add("p", Point(x: -1.25, y: 3))
        j.add("b", true)
        j.addRaw("raw", "[1,2]")
        let object = try #require(JSONSerialization.jsonObject(with: Data(j.line.utf8)) as? [String: Any])
        #expect(object["s"] as? String == tricky)
        #expect((object["p"] as? [String: Any])?["x"] as? Double == -1.25)
        #expect(object["b"] as? Bool == true)
        #expect(object["raw"] as? [Int] == [1, 2])
    }

    @Test func randomNumbersRoundTripToSixDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double.random(in: -1e9...1e9, using: &generator) / Double([1, 10, 1000, 1e6][Int.random(in: 0..<4)])
            let text = JSONLine.number(value)
            let parsed = try #require(Double(text), "\(text)")
            #expect(abs(parsed - value) <= 0.0000005 + abs(value) * 1e-15, "\(value) -> \(text)")
            #expect(!text.contains("e"))
            if text.contains(".") { #expect(!text.hasSuffix("0"), "\(text)") }
        }
    }
}
