import GestureConfig
import GestureCore
import Testing

/// Who takes a touch from the desktop, and who holds it back, as the config layer computes it.
@Suite struct ForwardingConfigTests {
    static func recognizers(_ yaml: String) throws -> [String: RecognizerSpec] {
        let c = try ConfigurationLoader.parse(yaml, file: "forward.yml")
        return Dictionary(uniqueKeysWithValues: c.engine.recognizers.map { ($0.id, $0) })
    }

    @Test func boundGesturesClaimAndUnboundOnesDoNot() throws {
        let r = try Self.recognizers("""
            devices: { forward: true }
            gestures:
              - { id: edge, kind: edge-pan, edges: [left] }
              - { id: swipe-3, kind: swipe, fingers: 3 }
              - { id: swipe-4, kind: swipe, fingers: 4, cancels-touches: false }
              - { id: tap, kind: tap }
              - { id: pan, kind: pan, cancels-touches: true }
              - { id: double, kind: tap, taps: 2, delays-touches-began: true }
              - { id: flick, kind: swipe }
            bindings:
              - { gesture: edge, command: "true" }
              - { gesture: swipe-3, command: "true" }
              - { gesture: swipe-4, command: "true" }
              - { gesture: tap, command: "true" }
            """)
        #expect(r["edge"]?.claimsForwarded == true && r["edge"]?.holdsForwarded == .always)
        #expect(r["swipe-3"]?.claimsForwarded == true && r["swipe-3"]?.holdsForwarded == .touchpadFingerCount(3))
        // cancels-touches: false wins over the binding: nothing claimed, nothing held.
        #expect(r["swipe-4"]?.claimsForwarded == false && r["swipe-4"]?.holdsForwarded == .never)
        #expect(r["tap"]?.claimsForwarded == true && r["tap"]?.holdsForwarded == .never)
        #expect(r["pan"]?.claimsForwarded == true && r["pan"]?.holdsForwarded == .never)
        #expect(r["double"]?.claimsForwarded == false && r["double"]?.holdsForwarded == .always)
        #expect(r["flick"]?.claimsForwarded == false && r["flick"]?.holdsForwarded == .never)
    }

    @Test func forwardIsADeviceSetting() throws {
        #expect(try ConfigurationLoader.parse("devices: { forward: true }", file: "f.yml").devices.forward)
        #expect(try !ConfigurationLoader.parse("devices: { grab: true }", file: "f.yml").devices.forward)
        #expect(throws: ConfigErrors.self) { try ConfigurationLoader.parse("devices: { forward: maybe }", file: "f.yml") }
    }

    @Test func aClientsOwnGesturesClaim() throws {
        let line = #"{"request":"attach","regions":{"id":"bar","frame":[0,0,"100%",40]},"#
            + #""gestures":[{"id":"edge","kind":"edge-pan","edges":["top"]},{"id":"look","kind":"tap","cancels-touches":false}]}"#
        let a = try RequestReader.attachment(line, parent: "screen").get()
        #expect(a.recognizers[0].claimsForwarded && a.recognizers[0].holdsForwarded == .always)
        #expect(!a.recognizers[1].claimsForwarded)
    }
}
