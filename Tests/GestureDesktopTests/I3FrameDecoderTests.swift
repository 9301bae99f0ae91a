import GestureCore
import GestureDesktop
import Testing

@Suite struct I3FrameDecoderTests {
    @Test func framesCutAnywhereComeOutWhole() throws {
        let first = I3Message.frame(.getTree, "{}")
        let event = I3Message.frame(type: I3Message.eventBit | 3, payload: Array(#"{"change":"focus"}"#.utf8))
        let stream = first + event
        var decoder = I3FrameDecoder()
        var frames: [I3Frame] = []
        for byte in stream {
            decoder.append([byte])
            while let frame = try decoder.next() { frames.append(frame) }
        }
        #expect(frames.map(\.type) == [4, I3Message.eventBit | 3])
        #expect(frames.map(\.isEvent) == [false, true])
        #expect(frames[1].payload == Array(#"{"change":"focus"}"#.utf8))
        #expect(decoder.pendingBytes == 0)
    }

    @Test func aTruncatedFrameWaitsForTheRest() throws {
        var decoder = I3FrameDecoder()
        decoder.append(I3Message.frame(.getOutputs, "[]").dropLast())
        #expect(try decoder.next() == nil)
        decoder.append([UInt8(ascii: "]")])
        #expect(try decoder.next()?.payload == Array("[]".utf8))
    }

    @Test func garbageIsNotAFrame() {
        var decoder = I3FrameDecoder()
        decoder.append(Array("HTTP/1.1 400 Bad Request\r\n".utf8))
        #expect(throws: I3FrameDecoder.Failure.self) { try decoder.next() }
        var early = I3FrameDecoder()
        early.append(Array("i3-x".utf8))
        #expect(throws: I3FrameDecoder.Failure.notIPC(received: Array("i3-x".utf8))) { try early.next() }
    }

    @Test func aHugeLengthIsRefusedBeforeAnyByteOfItIsHeld() {
        var decoder = I3FrameDecoder(maximumPayload: 1 << 20)
        var header = I3Message.magic
        withUnsafeBytes(of: UInt32.max) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(4)) { header.append(contentsOf: $0) }
        decoder.append(header)
        #expect(throws: I3FrameDecoder.Failure.tooLarge(length: UInt64(UInt32.max), maximum: 1 << 20)) { try decoder.next() }
    }
}
