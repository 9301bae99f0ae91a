import Foundation
import Testing
import GestureCore
import GesturePosix
@testable import GestureDaemon

/// 1,000 abusive clients against the real hub over the scripted kernel, seeded so a failure can be
/// replayed: mutated requests (flipped and inserted bytes, control characters, invalid UTF-8,
/// truncation), stream pipes asked for and replaced, lines far over the limit, random read splits, slow readers, peers that vanish.
/// The hub must never trap or spin, answer every line a staying client finished exactly once with
/// one clean JSON line, keep its buffers bounded, and give every descriptor back.
@Suite struct AbusiveClientsTests {
    struct Mix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = [
        #"{"request":"status"}"#, #"{"request":"subscribe","kinds":["tap","pan"],"touches":["*"]}"#,
        #"{"request":"hit-test","x":1.5,"y":-2e3,"device":"d","id":"q"}"#, #"{"request":"explain","on":false,"id":7}"#,
        #"{"request":"unsubscribe"}"#, #"{"request":"devices"}"#, #"{"request":"reload"}"#,
        #"{"request":"subscribe","stream":"pipe","kinds":["pan"]}"#,
    ]

    static func mutated(_ rng: inout Mix) -> [UInt8] {
        var bytes = Array(seeds.randomElement(using: &rng)!.utf8)
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let at = Int.random(in: 0...bytes.count, using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8.random(in: 1...255, using: &rng)
            case 1: bytes.insert(contentsOf: Array("\u{2028}\u{7}\u{1B}[2J\u{85}".utf8).shuffled(using: &rng).prefix(3), at: at)
            case 2: bytes.insert(contentsOf: [0xFF, 0xC0, 0x80], at: at)  // never valid UTF-8
            case 3: bytes = Array(bytes.prefix(at))
            case 4: bytes.insert(contentsOf: Array(",}]\"\\:".utf8).shuffled(using: &rng).prefix(2), at: at)
            case 5: bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "["), count: Int.random(in: 1...200, using: &rng)), at: at)
            default: bytes.insert(contentsOf: Array(" \t\r".utf8), at: at)
            }
        }
        bytes.removeAll { $0 == 10 }
        return bytes
    }

    /// Lines that get a reply: every non-blank line the client finished, and an unfinished last
    /// one already over the limit (refused before its end arrives).
    static func finishedLines(_ sent: [UInt8]) -> Int {
        let pieces = sent.split(separator: 10, omittingEmptySubsequences: false)
        let finished = pieces.dropLast().filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }.count
        return finished + (pieces.last!.count > ClientHub.maximumLineLength ? 1 : 0)
    }

    @Test(arguments: [1, 2])
    func aThousandAbusiveClientsCrashNothingAndGetAnAnswerToEveryLine(seed: UInt64) throws {
        var rng = Mix(state: seed)
        let scripted = try ScriptedHub(queueLimit: 32)
        let baseline = scripted.kernel.open.count
        var rounds = 0
        var answered = 0
        while rounds < 1000 {
            // Up to 40 clients at a time.
            var batch: [(peer: ScriptedKernel.Peer, sent: [UInt8], vanishes: Bool)] = []
            for _ in 0..<min(40, 1000 - rounds) {
                let peer = scripted.kernel.connect(uid: 0)
                let split = [7, 100, 4096, Int.max].randomElement(using: &rng)!
                var sent: [UInt8] = []
                for _ in 0..<Int.random(in: 0...12, using: &rng) {
                    // Over-long lines with reads of at least 100 bytes (7-byte reads of 140 KB only cost time).
                    if split >= 100 && Int.random(in: 0..<30, using: &rng) == 0 {
                        sent += [UInt8](repeating: UInt8(ascii: "x"), count: Int.random(in: 60_000...140_000, using: &rng))
                    } else {
                        sent += Self.mutated(&rng)
                    }
                    if Int.random(in: 0..<8, using: &rng) != 0 { sent.append(10) }
                }
                peer.send(bytes: sent)
                peer.readsSplit(every: split)
                peer.allow([0, 50, 300, Int.max].randomElement(using: &rng)!)
                batch.append((peer, sent, Int.random(in: 0..<5, using: &rng) == 0))
                rounds += 1
            }
            for _ in 0..<200 {
                for client in batch {
                    if client.vanishes && Bool.random(using: &rng) { client.peer.vanish() }
                    if client.peer.socket.room != Int.max { client.peer.allow(client.peer.socket.room + 400) }
                }
                let moved = try scripted.turn()
                for client in batch {
                    if let connection = scripted.connection(client.peer) {
                        #expect(connection.input.bufferedCount <= ClientHub.maximumLineLength + ClientHub.readSize)
                        #expect(connection.output.count <= 32 + 1)
                    }
                }
                if !moved { break }
            }
            // Slow readers now read everything: every finished line must get its answer.
            for client in batch { client.peer.allow(Int.max) }
            #expect(try scripted.runUntilIdle(limit: 1_000_000), "seed \(seed): the loop kept spinning")
            for client in batch where !client.vanishes {
                let lines = Array(client.peer.take().dropFirst())  // the greeting
                #expect(lines.count == Self.finishedLines(client.sent), "seed \(seed): \(lines.count) replies for \(Self.finishedLines(client.sent)) lines")
                for line in lines {
                    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" })
                    #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line.prefix(200))")
                }
                answered += lines.count
                client.peer.finishSending()
            }
            for client in batch { client.peer.vanish() }
            #expect(try scripted.runUntilIdle())
            #expect(scripted.hub.clientCount == 0)
        }
        #expect(scripted.kernel.open.count == baseline, "descriptors left open")
        #expect(answered > 3000)
    }
}
