import CLibdbus
import GestureCore
@testable import GestureDesktop
import Testing

/// `DBusDecoding` over messages on the wire: each captured `busctl --json=short` reply (its signature
/// and its values, Fixtures/README.md) is written into a real libdbus message by signature, serialised
/// as the bus carries it (`dbus_message_marshal`) and decoded back from those bytes: the decoding must
/// give the values busctl printed, and the readers must read them.
@Suite struct DBusDecodingTests {
    /// The captured reply's values, through the wire and back.
    func roundTrip(_ fixture: String) throws -> (captured: [DesktopJSON], decoded: [DesktopJSON]) {
        let reply = try Fixtures.json(fixture)
        let signature = try #require(reply["type"]?.string)
        let values = try #require(reply["data"]?.array)
        let bytes = try DBusWire.marshal(signature: signature, values)
        return (values, try #require(DBusDecoding.arguments(ofMarshalled: bytes), "libdbus could not read back \(fixture)"))
    }

    @Test func mutterGetCurrentStateDecodesAsBusctlPrintedIt() throws {
        let (captured, decoded) = try roundTrip("gnome-current-state.json")
        #expect(decoded == captured)
        #expect(try GnomeReader.outputs(currentState: decoded) == [
            DesktopOutput(name: "Meta-0", x: 0, y: 0, width: 1280, height: 800, scale: 1, transform: .normal),
        ])
    }

    @Test func twoLogicalMonitorsAndATransformDecodeAsCaptured() throws {
        for fixture in ["gnome-current-state-two-logical.json", "gnome-current-state-transform1.json"] {
            let (captured, decoded) = try roundTrip(fixture)
            #expect(decoded == captured, "\(fixture)")
        }
    }

    /// The extension's `GetWindows` and KWin's `supportInformation`: one string each.
    @Test func stringRepliesDecodeToTheirString() throws {
        for fixture in ["gnome-windows.json", "kwin-support-information.json"] {
            let (captured, decoded) = try roundTrip(fixture)
            #expect(decoded == captured, "\(fixture)")
            #expect(decoded.count == 1 && decoded[0].string != nil, "\(fixture)")
        }
    }

    /// `GetExtensionInfo`'s a{sv}: a dictionary of variants, as `{"type": signature, "data": value}`.
    @Test func extensionInfoDictionaryOfVariants() throws {
        let info: DesktopJSON = .object([
            ("uuid", .object([("type", .string("s")), ("data", .string("gestured@gestured.org"))])),
            ("state", .object([("type", .string("d")), ("data", .number(1))])),
            ("enabled", .object([("type", .string("b")), ("data", .bool(true))])),
            ("shell-version", .object([("type", .string("as")), ("data", .array([.string("45"), .string("46")]))])),
        ])
        let decoded = try #require(DBusDecoding.arguments(ofMarshalled: try DBusWire.marshal(signature: "a{sv}", [info])))
        #expect(decoded == [info])
        #expect(decoded.first?["state"]?["data"]?.number == 1)
    }

    /// Integer types of every width, an object path and a dictionary with integer keys.
    @Test func everyBasicTypeAndIntegerKeys() throws {
        let values: [DesktopJSON] = [.number(255), .number(-32768), .number(65535), .number(-7), .number(4_000_000_000),
                                     .number(-9_000_000_000), .number(9_000_000_000), .number(2.5), .bool(false),
                                     .string("/org/gestured/Desktop"), .string("a{sv}"),
                                     .object([("3", .string("three")), ("-1", .string("minus one"))])]
        let decoded = DBusDecoding.arguments(ofMarshalled: try DBusWire.marshal(signature: "ynqiuxtdboga{is}", values))
        #expect(decoded == values)
    }

    @Test func bytesThatAreNoMessageDecodeToNil() {
        #expect(DBusDecoding.arguments(ofMarshalled: []) == nil)
        #expect(DBusDecoding.arguments(ofMarshalled: Array("not a D-Bus message at all".utf8)) == nil)
    }
}

/// Writes JSON values into a libdbus message by a D-Bus signature (the inverse of `DBusDecoding`, for
/// tests): a signal carrying the values, serialised as it would travel on the bus.
enum DBusWire {
    struct Mismatch: Error, CustomStringConvertible { var description: String }

    static func marshal(signature: String, _ values: [DesktopJSON]) throws -> [UInt8] {
        let message = try #require(dbus_message_new_signal("/org/gestured/Test", "org.gestured.Test", "Reply"))
        defer { dbus_message_unref(message) }
        dbus_message_set_serial(message, 1)  // as sending would: a message with serial 0 is not valid on the wire
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        var types = Substring(signature)
        for value in values {
            let type = try single(&types)
            try append(value, type, &iterator)
        }
        guard types.isEmpty else { throw Mismatch(description: "more types than values: \(types)") }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else { throw Mismatch(description: "marshal failed") }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// Takes one complete type off the front of a signature.
    static func single(_ types: inout Substring) throws -> Substring {
        guard let first = types.first else { throw Mismatch(description: "more values than types") }
        var end = types.index(after: types.startIndex)
        switch first {
        case "a":
            var rest = types[end...]
            let element = try single(&rest)
            end = element.endIndex
        case "(", "{":
            var depth = 0
            var i = types.startIndex
            repeat {
                if types[i] == "(" || types[i] == "{" { depth += 1 }
                if types[i] == ")" || types[i] == "}" { depth -= 1 }
                i = types.index(after: i)
            } while depth > 0
            end = i
        default:
            break
        }
        defer { types = types[end...] }
        return types[..<end]
    }

    static func append(_ value: DesktopJSON, _ type: Substring, _ iterator: inout DBusMessageIter) throws {
        func basic<T>(_ code: Character, _ v: T) {
            var v = v
            withUnsafeMutableBytes(of: &v) { _ = dbus_message_iter_append_basic(&iterator, Int32(code.asciiValue!), $0.baseAddress) }
        }
        func number() throws -> Double {
            guard let n = value.number else { throw Mismatch(description: "expected a number for \(type), got \(value)") }
            return n
        }
        switch type.first! {
        case "y": basic("y", UInt8(try number()))
        case "b": basic("b", dbus_bool_t(value.bool == true ? 1 : 0))
        case "n": basic("n", Int16(try number()))
        case "q": basic("q", UInt16(try number()))
        case "i", "h": basic(type.first!, Int32(try number()))
        case "u": basic("u", UInt32(try number()))
        case "x": basic("x", Int64(try number()))
        case "t": basic("t", UInt64(try number()))
        case "d": basic("d", try number())
        case "s", "o", "g":
            guard let s = value.string else { throw Mismatch(description: "expected a string for \(type), got \(value)") }
            try s.withCString { pointer in
                var p: UnsafePointer<CChar>? = pointer
                guard dbus_message_iter_append_basic(&iterator, Int32(type.first!.asciiValue!), &p) != 0 else {
                    throw Mismatch(description: "libdbus refused '\(s)' as \(type)")
                }
            }
        case "v":
            guard let inner = value["type"]?.string, let data = value["data"] else { throw Mismatch(description: "a variant without type and data") }
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(&iterator, Int32(UInt8(ascii: "v")), inner, &sub)
            try append(data, Substring(inner), &sub)
            dbus_message_iter_close_container(&iterator, &sub)
        case "a":
            let element = type.dropFirst()
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(&iterator, Int32(UInt8(ascii: "a")), String(element), &sub)
            if element.first == "{" {
                guard let fields = value.fields else { throw Mismatch(description: "expected an object for \(type)") }
                let inner = element.dropFirst().dropLast()
                var keyTypes = inner
                let keyType = try single(&keyTypes)
                for (key, item) in fields {
                    var entry = DBusMessageIter()
                    dbus_message_iter_open_container(&sub, Int32(UInt8(ascii: "e")), nil, &entry)
                    let keyValue: DesktopJSON = "sog".contains(keyType.first!) ? .string(key) : .number(Double(key) ?? 0)
                    try append(keyValue, keyType, &entry)
                    try append(item, keyTypes, &entry)
                    dbus_message_iter_close_container(&sub, &entry)
                }
            } else {
                guard let items = value.array else { throw Mismatch(description: "expected an array for \(type)") }
                for item in items { try append(item, element, &sub) }
            }
            dbus_message_iter_close_container(&iterator, &sub)
        case "(":
            guard let items = value.array else { throw Mismatch(description: "expected an array for struct \(type)") }
            var fields = type.dropFirst().dropLast()
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(&iterator, Int32(UInt8(ascii: "r")), nil, &sub)
            for item in items { try append(item, try single(&fields), &sub) }
            dbus_message_iter_close_container(&iterator, &sub)
        default:
            throw Mismatch(description: "type \(type) is not written by this test helper")
        }
    }
}
