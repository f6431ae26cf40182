import Foundation
import RunusCore

/// A fresh directory under /tmp, removed by `cleanup()`.
struct TemporaryDirectory {
    let path: String

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "runus-\(safe)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}
