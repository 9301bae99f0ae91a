import Testing
@testable import GestureCore

/// `ScratchList`: the per-frame lists of the engine and the frame assembler reuse their entries.
@Suite struct ScratchListTests {
    @Test func aListRefilledAfterRemoveAllHoldsOnlyTheNewEntries() {
        var list = ScratchList<Int>()
        for value in [7, 8, 9] { list.append(value) }
        #expect(list.count == 3)
        list.removeAll()
        #expect(list.isEmpty)
        #expect(list.indices == 0..<0)
        list.append(1)
        list.append(2)
        // The third entry of the first fill is still in the storage, but not in the list.
        #expect(list.count == 2)
        #expect(list.indices.map { list[$0] } == [1, 2])
        // Growing past the first fill appends to the storage.
        for value in 3...40 { list.append(value) }
        #expect(list.indices.map { list[$0] } == Array(1...40))
    }

    @Test func aContactLeftOutOfTheNextFrameIsNotFoundThere() {
        var samples = ContactSamples()
        for key: UInt64 in [10, 11, 12] { samples.append(ContactSample(key: key, x: 0, y: 0)) }
        #expect(samples.sample(key: 12) != nil)
        samples.removeAll()
        samples.append(ContactSample(key: 11, x: 5, y: 6))
        #expect(samples.sample(key: 11)?.x == 5)
        #expect(samples.sample(key: 12) == nil)
        #expect(samples.sample(key: 10) == nil)
    }
}
