#if canImport(Glibc)
import Glibc
#endif
import Testing
import GesturePosix

/// The one EINTR loop and the C calling conventions it is fed through.
@Suite struct RetryingOnInterruptTests {
    @Test func anInterruptedCallIsRetriedUntilItAnswers() {
        var attempts = 0
        let result: Result<Int, Errno> = retryingOnInterrupt {
            attempts += 1
            return attempts < 4 ? .failure(.interrupted) : .success(42)
        }
        #expect(result == .success(42))
        #expect(attempts == 4)
    }

    @Test func anyOtherErrorIsReturnedAtOnce() {
        for error in [Errno.wouldBlock, .brokenPipe, .connectionReset, .noDevice] {
            var attempts = 0
            let result: Result<Int, Errno> = retryingOnInterrupt {
                attempts += 1
                return .failure(error)
            }
            #expect(result == .failure(error))
            #expect(attempts == 1)
        }
    }

    @Test func theThreeCallingConventionsMapToErrno() {
        errno = EPIPE
        #expect(Errno.result(Int32(-1)) == .failure(.brokenPipe))
        #expect(Errno.result(7) == .success(7))
        #expect(Errno.result(negative: -ENODEV) == .failure(.noDevice))
        #expect(Errno.result(negative: 1) == .success(1))
        #expect((try? Errno.result(returned: 0).get()) != nil)
        #expect(Errno.result(returned: EINTR).map { 0 } == .failure(.interrupted))
    }
}
