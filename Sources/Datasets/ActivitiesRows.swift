/// `runners/activities.csv` of a datasets folder split into cells (`ReferenceCheck.cells`): its
/// header and every data row, for the commands that walk the runners' tracks.
public struct ActivitiesRows {
    public let path: String
    public let header: [String]
    /// Data rows; a row whose cell count differs from the header's is the caller's to skip.
    public let rows: [[String]]

    public init(dataset: String) throws {
        path = dataset + "/runners/activities.csv"
        let text = String(decoding: try TrackFiles.bytes(path), as: UTF8.self)
        var lines = text.split(separator: "\n")
        guard !lines.isEmpty else { throw DatasetError("\(path) is empty, expected a header line") }
        header = ReferenceCheck.cells(lines.removeFirst())
        rows = lines.map(ReferenceCheck.cells)
    }

    /// The index of column `name`, or an error naming the file.
    public func column(_ name: String) throws -> Int {
        guard let i = header.firstIndex(of: name) else { throw DatasetError("\(path): no column '\(name)'") }
        return i
    }

    /// The track file of a row: `runners/tracks/RUNNER/ID.csv.gz`.
    public static func trackPath(dataset: String, runner: String, activity: String) -> String {
        "\(dataset)/runners/tracks/\(runner)/\(activity).csv.gz"
    }
}
