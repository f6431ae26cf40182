import RunusCore
import Tracking

/// Reads any supported track file from its bytes: gunzips when the bytes are gzip, then picks
/// the format from the content (FIT signature, XML root, JSON, CSV header), falling back to the
/// name's extension (record 0110).
public enum TrackFileReader {
    /// The format of `bytes` (already decompressed), or `nil` when none matches.
    public static func detect(_ bytes: [UInt8], name: String) -> TrackFileFormat? {
        if FITReader.looksLikeFIT(bytes) { return .fit }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        let limit = min(bytes.count, 4096)
        while i < limit, ByteNumbers.isSpace(bytes[i]) { i += 1 }
        if i < limit, bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") { return .geojson }
        if i < limit, bytes[i] == UInt8(ascii: "<") {
            let head = String(decoding: bytes[i..<limit], as: UTF8.self)
            if head.contains("<TrainingCenterDatabase") || head.contains(":TrainingCenterDatabase") { return .tcx }
            if head.contains("<gpx") || head.contains(":gpx") { return .gpx }
        }
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        for format in TrackFileFormat.allCases where lower.hasSuffix("." + format.rawValue) { return format }
        if lower.hasSuffix(".json") { return .geojson }
        if i < limit, bytes[i] == UInt8(ascii: "<") { return .gpx }
        if i < limit, bytes[i] == UInt8(ascii: "t") { return .csv }
        return nil
    }

    /// Every activity in the file. Throws `TrackReadError` naming `name`, the offset and the
    /// problem for corrupt, truncated or unknown input; never traps on bad bytes.
    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> (format: TrackFileFormat, activities: [Activity]) {
        var data = bytes
        if Gzip.isGzip(bytes) { data = try Gzip.decompress(bytes, name: name) }
        guard !data.isEmpty else {
            throw TrackReadError(file: name, offset: 0, problem: .truncated, message: "empty file")
        }
        guard let format = detect(data, name: name) else {
            throw TrackReadError(file: name, offset: 0, problem: .unsupported,
                                 message: "not a GPX, TCX, FIT, GeoJSON or CSV track file")
        }
        switch format {
        case .gpx: return (format, [try GPXReader.read(data, name: name)])
        case .tcx: return (format, try TCXReader.read(data, name: name))
        case .fit: return (format, try FITReader.read(data, name: name))
        case .geojson: return (format, [try GeoJSONReader.read(data, name: name)])
        case .csv: return (format, [try CSVTrackReader.read(data, name: name)])
        }
    }
}
