import Testing
import GestureCore
@testable import GestureDaemon
@testable import GestureProtocol

/// Requests are strict JSON (RFC 8259); client text echoed in messages and every JSON string the
/// daemon writes stay on one line.
@Suite struct StrictJSONSyntaxTests {
    @Test(arguments: [
        #"{"request":"status"}"#, #" {"request" : "status"} "#, "{\"request\":\"status\"}\r",
        #"{"request":"subscribe","kinds":["tap","pan"],"x":-0.5e+3,"y":10,"on":true,"n":null}"#,
        #"{"request":"a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00"}"#, #"{"request":"x","deep":{"a":[[{}],[]]}}"#, "[]", "0", "\"s\"",
    ])
    func validJSONPasses(_ line: String) {
        #expect(StrictJSONSyntax.check(line) == nil, "\(line)")
    }

    @Test(arguments: [
        (#"{"request":"status",}"#, 20, "no trailing comma"),
        (#"{"kinds":["tap",]}"#, 16, "no trailing comma"),
        (#"{"request":"status"} {"request":"status"}"#, 21, "the end of the line"),
        (#"{"x":01}"#, 6, "no leading zero"),
        (#"{'request':"status"}"#, 1, "a quoted key"),
        (#"{request:"status"}"#, 1, "a quoted key"),
        (#"{"x":1.}"#, 7, "a digit after '.'"),
        (#"{"x":1e}"#, 7, "a digit in the exponent"),
        (#"{"x":+1}"#, 5, "a JSON value"),
        (#"{"x":NaN}"#, 5, "a JSON value"),
        (#"{"x":tru}"#, 8, "'true'"),
        (#"{"x":"a\qb"}"#, 8, "an escape"),
        (#"{"x":"\u12G4"}"#, 10, "four hex digits"),
        ("{\"x\":\"a\u{1}b\"}", 7, "no raw control character"),
        (#"{"x":"open}"#, 11, "a closing '\"'"),
        (#"{"x" 1}"#, 5, "':' after a key"),
        (#"{"x":1 "y":2}"#, 7, "',' or '}'"),
        (#"{"request":"status"/*c*/}"#, 19, "',' or '}'"),
        ("", 0, "a JSON value"),
    ])
    func sloppyJSONIsRefusedWithWhereAndWhat(_ line: String, offset: Int, expected: String) {
        let violation = StrictJSONSyntax.check(line)
        #expect(violation?.offset == offset, "\(line): \(violation.map(String.init(describing:)) ?? "accepted")")
        #expect(violation?.expected.contains(expected) == true, "\(line): \(violation.map(String.init(describing:)) ?? "accepted")")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(StrictJSONSyntax.check(deep)?.expected.contains("levels of nesting") == true)
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(StrictJSONSyntax.check(fine) == nil)
    }

    @Test func aTrailingCommaIsAMalformedRequest() {
        guard case .failure(let error) = ClientRequest.parse(#"{"request":"status",}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(error.message == "malformed request: expected a quoted key (no trailing comma) at byte 21 (one strict JSON object per line)")
    }

    @Test func echoedClientTextShowsControlCharactersAsEscapes() {
        #expect(ProtocolError.echo("fly") == "'fly'")
        #expect(ProtocolError.echo("a\u{2028}b\u{2029}c\u{7}\u{1B}[2J\u{7F}\u{85}\r\n") == #"'a\u{2028}b\u{2029}c\u{7}\u{1B}[2J\u{7F}\u{85}\u{D}\u{A}'"#)
        #expect(ProtocolError.echo(String(repeating: "x", count: 100)) == "'" + String(repeating: "x", count: 64) + "…'")
    }

    @Test func jsonStringsNeverCarryALineBreakOrControlCharacter() {
        let hostile = "a\u{2028}b\u{2029}c\u{7}d\u{7F}e\u{9F}f\u{A0}g"
        #expect(JSONLine.quoted(hostile) == #""a\u2028b\u2029c\u0007d\u007fe\u009ff\#u{A0}g""#)
    }
}

/// Log lines carry device names and client text: one message stays one line and writes nothing
/// a terminal would act on.
@Suite struct LogQuotingTests {
    @Test func plainWordsStayAsTheyAre() {
        #expect(JournalLogHandler.quote("ELAN0732:00") == "ELAN0732:00")
    }

    @Test func controlCharactersAndLineBreaksAreEscaped() {
        #expect(JournalLogHandler.quote("a b") == #""a b""#)
        #expect(JournalLogHandler.quote("x\u{1B}[2Jy") == #""x\u{1B}[2Jy""#)
        #expect(JournalLogHandler.quote("one\ntwo\u{2028}three\r") == #""one\ntwo\u{2028}three\u{D}""#)
        #expect(JournalLogHandler.quote(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    }
}
