import Testing
import GesturePosix

/// How far the soft open-file limit is raised.
@Suite struct DescriptorLimitTests {
    @Test func aLowSoftLimitIsRaisedToWhatIsWantedOrTheHardLimit() {
        #expect(DescriptorLimit.raisedSoftLimit(soft: 1024, hard: 524_288, wanted: 4096) == 4096)
        #expect(DescriptorLimit.raisedSoftLimit(soft: 1024, hard: 2048, wanted: 4096) == 2048)
        #expect(DescriptorLimit.raisedSoftLimit(soft: 1024, hard: .max, wanted: 4096) == 4096)  // RLIM_INFINITY
    }

    @Test func aHighEnoughOrCappedLimitIsLeftAlone() {
        #expect(DescriptorLimit.raisedSoftLimit(soft: 4096, hard: 524_288, wanted: 4096) == nil)
        #expect(DescriptorLimit.raisedSoftLimit(soft: 20_000, hard: 20_000, wanted: 4096) == nil)
        #expect(DescriptorLimit.raisedSoftLimit(soft: 1024, hard: 1024, wanted: 4096) == nil)
    }
}
