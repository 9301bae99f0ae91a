#if canImport(Glibc)
import Glibc
#endif

/// The whole content of the file at `path`, or the errno that stopped reading it.
public func readWholeFile(_ path: String) -> Result<[UInt8], SystemCallError> {
    let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { return .failure(.current("open", subject: path)) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return .failure(.current("read", subject: path))
        }
        if n == 0 { return .success(bytes) }
        bytes.append(contentsOf: chunk[0..<n])
    }
}

/// Whether something exists at `path`.
public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
