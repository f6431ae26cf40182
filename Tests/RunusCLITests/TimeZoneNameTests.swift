import Foundation
import RunusCore
import Testing
@testable import Service
@testable import RunusCLI

/// Record 0556 (issue 55, found 2026-12-07): `GMT+5` (which Foundation reads as UTC+5, the
/// opposite of the database's `Etc/GMT+5`), `GMT+18`, `UTC-12:30` and `Factory` passed as zones.
@Suite("time-zone names are the IANA database's (record 0556)")
struct TimeZoneNameTests {
    @Test("zones and links of the database pass, backward links included", arguments: [
        "Europe/Paris", "Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires", "UTC", "Etc/UTC", "Etc/GMT+5",
        "America/Port-au-Prince", "Pacific/Chatham",
    ])
    func known(_ zone: String) {
        #expect(SystemTimeZones.isKnown(zone))
        #expect(SystemTimeZones().offset(timeZone: zone, at: 1_800_000_000) != nil)
    }

    @Test("offset spellings Foundation invents, the placeholder, paths and junk are refused", arguments: [
        "GMT+5", "GMT+18", "UTC-12:30", "UTC+2", "Factory", "Europe/Nowhere", "", "europe/paris ", "../zoneinfo/UTC",
        "/usr/share/zoneinfo/UTC", "Europe//Paris", "Europe/.", "posix/Europe/Paris", "right/UTC", "zone.tab", "tzdata.zi",
        String(repeating: "A", count: 65), "Europe/Paris\u{0}",
    ])
    func unknown(_ zone: String) {
        #expect(!SystemTimeZones.isKnown(zone), "\(zone.debugDescription) passed")
    }

    @Test("users.upsert refuses GMT+5 naming it, and keeps the zone it had")
    func upsert() throws {
        let harness = try ProductionDaemon()
        defer { harness.stop() }
        let client = try harness.client()
        #expect(try client.call(["op": "users.upsert", "user": "ana", "time_zone": "Asia/Karachi"])["ok"] == true)
        let refused = try client.call(["op": "users.upsert", "user": "ana", "time_zone": "GMT+5"])
        #expect(refused.errorCode == "bad_request" && refused["error"]?["field"] == "time_zone", "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("'GMT+5' is not an IANA time zone") == true, "\(refused)")
        #expect(try client.call(["op": "users.get", "user": "ana"])["result"]?["profile"]?["time_zone"] == "Asia/Karachi")
    }
}
