#if canImport(Glibc)
import Glibc
#endif

/// The whole content of the file at `path`, or the errno that stopped reading it.
public func readWholeFile(_ path: String) -> Result<[UInt8], SystemCallError> {
    let fd: Int32
    switch retryingOnInterrupt({ Errno.result(open(path, O_RDONLY | O_CLOEXEC)) }) {
    case .success(let opened): fd = opened
    case .failure(let error): return .failure(SystemCallError("open", errno: error, subject: path))
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let result = chunk.withUnsafeMutableBytes { buffer in
            retryingOnInterrupt { Errno.result(read(fd, buffer.baseAddress, buffer.count)) }
        }
        switch result {
        case .failure(let error): return .failure(SystemCallError("read", errno: error, subject: path))
        case .success(0): return .success(bytes)
        case .success(let n): bytes.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Whether something exists at `path`.
public func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
