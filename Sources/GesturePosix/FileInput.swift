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
    // A regular file says its size: read it straight into one buffer of that size (plus one byte,
    // to see the end at once), instead of growing an array chunk by chunk.
    var status = stat()
    if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
        var bytes: [UInt8] = []
        let capacity = Int(status.st_size) + 1
        var failure: Errno?
        bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = 0
            while count < capacity {
                switch retryingOnInterrupt({ Errno.result(read(fd, buffer.baseAddress! + count, capacity - count)) }) {
                case .failure(let error): failure = error; return
                case .success(0): return
                case .success(let n): count += n
                }
            }
        }
        if let failure { return .failure(SystemCallError("read", errno: failure, subject: path)) }
        // Grown meanwhile: read the rest as for a file of unknown size.
        guard bytes.count == capacity else { return .success(bytes) }
        return readRest(fd, path, into: bytes)
    }
    return readRest(fd, path, into: [])
}

/// Reads `fd` to its end in chunks, after `bytes`.
private func readRest(_ fd: Int32, _ path: String, into start: [UInt8]) -> Result<[UInt8], SystemCallError> {
    var bytes = start
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

/// The names in the folder at `path`, in the order the kernel lists them, without `.` and `..`;
/// none when it cannot be read.
public func directoryNames(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
