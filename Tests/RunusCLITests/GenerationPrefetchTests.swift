import Testing
import Foundation
import Synchronization
import RunusCore
import Engine
@testable import Service

/// The scan that finds a request's op and user (record 0545), against the full parser.
@Suite("Request peek")
struct RequestPeekTests {
    static func peek(_ text: String) -> RequestPeek { RequestPeek(Array(text.utf8)) }

    @Test("top-level plain strings are found wherever they sit; anything else is passed over", arguments: [
        (#"{"op":"missions.today","user":"ana"}"#, RequestPeek(op: "missions.today", user: "ana")),
        (#" { "user" : "b o" , "op":"x" } "#, RequestPeek(op: "x", user: "b o")),
        (#"{"id":{"user":"inner","a":[1,"]",{"op":"no"}]},"k":-1.5e3,"ok":true,"user":"bo"}"#, RequestPeek(user: "bo")),
        (#"{"user":"jos\u00e9","op":"missions.today"}"#, RequestPeek(op: "missions.today")),  // an escape: not plain
        (#"{"us\u0065r":"bo"}"#, RequestPeek()),
        (#"{"user":7,"op":null}"#, RequestPeek()),
        (#"{"user":"🏃‍♀️"}"#, RequestPeek(user: "🏃‍♀️")),
        (#"{"user":"ana","user":"bo"}"#, RequestPeek(user: "ana")),
        (#"["user","ana"]"#, RequestPeek()),
        (#"{"op":"a" "user":"b"}"#, RequestPeek(op: "a")),  // stops at the syntax error
        (#"{"user":"ana"#, RequestPeek()),
        ("", RequestPeek()),
        ("{", RequestPeek()),
        (#"{"a":"\"#, RequestPeek()),
    ])
    func cases(line: String, expected: RequestPeek) {
        #expect(Self.peek(line) == expected, "\(line)")
    }

    @Test("invalid UTF-8 in the user is not a user")
    func invalidUTF8() {
        #expect(RequestPeek(Array(#"{"user":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)).user == nil)
    }

    /// A random value of depth <= 3 whose strings may need escapes.
    static func value(_ depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        let texts = ["ana", "b\"o", "c\\d", "ü", "{", "}", "[", ",", ":", "user", "op", "tab\t", ""]
        switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &random) {
        case 0: return .number(Double(Int.random(in: -1000...1000, using: &random)) / 8)
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .null
        case 3, 4: return .string(texts.randomElement(using: &random)!)
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth - 1, &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { members[texts.randomElement(using: &random)!] = value(depth - 1, &random) }
            return .object(members)
        }
    }

    @Test("on seeded random requests and every truncation, whatever is found is what the parser reads")
    func randomRequests() throws {
        var random = SeededGenerator(seed: 545)
        var found = 0
        for _ in 0..<400 {
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { members["k\(Int.random(in: 0...9, using: &random))"] = Self.value(3, &random) }
            if Int.random(in: 0..<4, using: &random) > 0 {
                members["user"] = Bool.random(using: &random) ? .string(["ana", "b o", "ü", "b\"o"].randomElement(using: &random)!)
                    : Self.value(1, &random)
            }
            if Bool.random(using: &random) { members["op"] = .string(Bool.random(using: &random) ? "missions.today" : "a\"b") }
            let line = JSONWriter.bytes(.object(members))
            let parsed = try JSONParser.parse(line)
            let peek = RequestPeek(line)
            for (key, got) in [("user", peek.user), ("op", peek.op)] {
                if let got {
                    #expect(parsed[key]?.stringValue == got, "\(String(decoding: line, as: UTF8.self))")
                    found += 1
                } else if let text = parsed[key]?.stringValue, !JSONWriter.string(.string(text)).contains("\\") {
                    Issue.record("\(key) \(text) not found in \(String(decoding: line, as: UTF8.self))")
                }
            }
            for end in 0..<line.count {
                let partial = RequestPeek(Array(line[0..<end]))
                if let user = partial.user { #expect(parsed["user"]?.stringValue == user) }
                if let op = partial.op { #expect(parsed["op"]?.stringValue == op) }
            }
        }
        #expect(found > 100, "the generator rarely made a findable member")
        // Hostile bytes from JSON's own alphabet: never a trap, and a line that parses agrees.
        let alphabet = Array(#"{}[]":,\ u"ser"op1ü"#.utf8) + [0xFF, 0x00]
        for _ in 0..<3000 {
            let line = (0..<Int.random(in: 0...30, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let peek = RequestPeek(line)
            if let parsed = try? JSONParser.parse(line), let user = peek.user { #expect(parsed["user"]?.stringValue == user) }
        }
    }
}

/// One generation read per round for the round's missions.today users (record 0545).
@Suite("Generation prefetch")
struct GenerationPrefetchTests {
    /// Generations kept in memory; counts single and batched reads.
    final class CountingGenerations: GenerationStore {
        let values = Mutex<[ExactText: Int64]>([:])
        let singles = Mutex<[String]>([])
        let batches = Mutex<[[String]]>([])
        let failBatches = Atomic<Bool>(false)
        struct Down: Error {}

        func generation(user: UserID) throws -> Int64? {
            singles.withLock { $0.append(user) }
            return values.withLock { $0[ExactText(user)] ?? 0 }
        }

        func generations(of users: [UserID]) throws -> [Int64]? {
            batches.withLock { $0.append(users) }
            if failBatches.load(ordering: .relaxed) { throw Down() }
            return values.withLock { v in users.map { v[ExactText($0)] ?? 0 } }
        }

        func set(_ user: UserID, _ generation: Int64) { values.withLock { $0[ExactText(user)] = generation } }
    }

    static func today(_ user: String) -> [UInt8] { Array(#"{"op":"missions.today","user":"\#(user)"}"#.utf8) }

    @Test("a round's missions.today users are read once, together, and their answers use that read")
    func oneReadPerRound() {
        let store = CountingGenerations()
        let cache = MissionsTodayCache(generation: { try store.generation(user: $0) })
        let prefetch = GenerationPrefetch(store: store)
        store.set("ana", 5)
        store.set("jose\u{301}", 9)
        let lines = [Self.today("ana"), Self.today("jos\u{E9}"), Self.today("jose\u{301}"), Self.today("ana"),
                     Array(#"{"op":"users.get","user":"cy"}"#.utf8), Array(#"{"op":"missions.today","user":"d\u0075"}"#.utf8)]
        var answered = false
        prefetch.prepare(lines: lines) {
            answered = true
            for user in ["ana", "jos\u{E9}", "jose\u{301}"] { cache.checkGeneration(user: user) }
            #expect(store.singles.withLock { $0 }.isEmpty, "a user of the round read their generation alone")
            cache.checkGeneration(user: "du")  // escaped in its line: not read ahead
            #expect(store.singles.withLock { $0 } == ["du"])
        }
        #expect(answered)
        #expect(store.batches.withLock { $0 } == [["ana", "jos\u{E9}", "jose\u{301}"]])
        // Outside a round each check reads alone, and sees a generation that moved since.
        store.set("ana", 6)
        let (_, ticket) = cache.entries.lookup(ExactText("ana"), .profile)
        cache.entries.store(ExactText("ana"), .profile, .profile(UserProfile(id: "ana", timeZone: "UTC")), ticket: ticket)
        cache.checkGeneration(user: "ana")
        #expect(store.singles.withLock { $0 } == ["du", "ana"])
        #expect(cache.entries.lookup(ExactText("ana"), .profile).value == nil, "a moved generation left the profile kept")
    }

    @Test("a round with one user reads nothing ahead; a failed read leaves each request to read alone")
    func smallAndFailedRounds() {
        let store = CountingGenerations()
        let cache = MissionsTodayCache(generation: { try store.generation(user: $0) })
        let prefetch = GenerationPrefetch(store: store)
        prefetch.prepare(lines: [Self.today("ana"), Self.today("ana")]) { cache.checkGeneration(user: "ana") }
        #expect(store.batches.withLock { $0 }.isEmpty)
        #expect(store.singles.withLock { $0 } == ["ana"])
        store.failBatches.store(true, ordering: .relaxed)
        var answered = false
        prefetch.prepare(lines: [Self.today("ana"), Self.today("bo")]) {
            answered = true
            cache.checkGeneration(user: "bo")
        }
        #expect(answered)
        #expect(store.singles.withLock { $0 } == ["ana", "bo"])
    }
}
