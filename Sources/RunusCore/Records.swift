/// The records that cross module boundaries: what the store keeps and the engine reads.
/// Field units are in the names; wire and column names add the unit suffix.

/// A runner's profile as sent by the app backend. Accounts are the backend's business.
public struct UserProfile: Sendable, Equatable, Codable {
    public var id: UserID
    /// Year of birth, e.g. 1990.
    public var birthYear: Int?
    /// "f", "m" or "x" (not stated / other).
    public var sex: String?
    /// Height in centimetres.
    public var heightCm: Double?
    /// Body mass in kilograms (calories use it).
    public var weightKg: Double?
    /// IANA time zone name, e.g. "Europe/Paris".
    public var timeZone: String
    /// Offset from UTC in seconds used for local days when the time zone cannot be resolved.
    public var utcOffsetSeconds: Int
    /// The name race answers show (1–64 characters); nil: none, apps show the id.
    public var displayName: String?

    public init(id: UserID, birthYear: Int? = nil, sex: String? = nil, heightCm: Double? = nil,
                weightKg: Double? = nil, timeZone: String = "UTC", utcOffsetSeconds: Int = 0, displayName: String? = nil) {
        self.id = id; self.birthYear = birthYear; self.sex = sex; self.heightCm = heightCm
        self.weightKg = weightKg; self.timeZone = timeZone; self.utcOffsetSeconds = utcOffsetSeconds
        self.displayName = displayName
    }
}

/// One finished run: the metrics summary, and the track in compact form when there is one.
/// A run is identified by `(userID, id)` (docs/decisions/0405-per-runner-keys.md).
public struct RunRecord: Sendable, Equatable {
    /// The runner's id for the run, unique per runner (the client's run id for ingested runs, so
    /// ingestion is idempotent; `import-…` for imported files; the simulator's own).
    public var id: String
    public var userID: UserID
    /// First point's time.
    public var startTime: EpochSeconds
    /// Distance of the run parts, vehicle parts removed.
    public var distance: Meters
    /// Wall time from first to last point.
    public var elapsed: Seconds
    /// Time in motion (auto-pause removed).
    public var moving: Seconds
    /// Positive elevation change after noise filtering.
    public var elevationGain: Meters
    /// Estimated energy, kcal, when the runner's weight is known.
    public var calories: Double?
    /// Where the run came from: "simulated", "import", "app".
    public var source: String
    /// Track in `CompactTrackCodec` form, or nil for summary-only runs.
    public var track: [UInt8]?
    /// False for a run kept in the history that completes no mission and earns no XP or badge
    /// (too old, or physically implausible: docs/decisions/0230-run-plausibility.md).
    public var rewarded: Bool
    /// Why the run is not rewarded, one sentence; nil when it is.
    public var unrewardedReason: String?

    public init(id: String, userID: UserID, startTime: EpochSeconds, distance: Meters,
                elapsed: Seconds, moving: Seconds, elevationGain: Meters, calories: Double? = nil,
                source: String, track: [UInt8]? = nil, rewarded: Bool = true, unrewardedReason: String? = nil) {
        self.id = id; self.userID = userID; self.startTime = startTime; self.distance = distance
        self.elapsed = elapsed; self.moving = moving; self.elevationGain = elevationGain
        self.calories = calories; self.source = source; self.track = track
        self.rewarded = rewarded; self.unrewardedReason = unrewardedReason
    }

    /// End of the run, Unix seconds.
    public var endTime: EpochSeconds { startTime + elapsed }

    /// Average moving pace in s/km, nil for a zero-distance run.
    public var movingPace: SecondsPerKm? { Pace.secondsPerKm(distance: distance, duration: moving) }
}

/// Where an offered mission stands.
public enum MissionStatus: String, Sendable, Codable, CaseIterable {
    /// Shown to the runner, not yet decided.
    case offered
    /// A run completed it.
    case completed
    /// The runner ran that day and no run completed it (decided once the day is over, record 0534).
    case failed
    /// The day passed without a run (or, for rows written before record 0534, a refresh replaced it).
    case expired
    /// A refresh replaced it with a new set before it was decided (record 0534).
    case replaced
}

/// A mission offered to a runner on a local day, with what the model said about it and, once
/// decided, what happened.
public struct MissionAssignment: Sendable, Equatable {
    public var id: String
    public var userID: UserID
    /// The runner's local day the mission is for.
    public var day: CivilDate
    /// Mission kind (wire name, e.g. "negative_split").
    public var kind: String
    /// Canonical JSON of the mission spec (sorted keys).
    public var specJSON: String
    /// Version string of the model (or policy) that scored it.
    public var modelVersion: String
    /// Predicted completion probability in [0, 1].
    public var pComplete: Double
    /// XP the mission is worth.
    public var xp: Int
    public var status: MissionStatus
    /// The run that decided it.
    public var runID: String?
    /// Progress fraction in [0, 1] from the decisive run.
    public var progress: Double?
    /// Simulation only: the behaviour model's true completion probability (evaluation only,
    /// never a feature).
    public var pTrue: Double?
    /// When it was offered.
    public var offeredAt: EpochSeconds

    public init(id: String, userID: UserID, day: CivilDate, kind: String, specJSON: String,
                modelVersion: String, pComplete: Double, xp: Int, status: MissionStatus = .offered,
                runID: String? = nil, progress: Double? = nil, pTrue: Double? = nil,
                offeredAt: EpochSeconds) {
        self.id = id; self.userID = userID; self.day = day; self.kind = kind
        self.specJSON = specJSON; self.modelVersion = modelVersion; self.pComplete = pComplete
        self.xp = xp; self.status = status; self.runID = runID; self.progress = progress
        self.pTrue = pTrue; self.offeredAt = offeredAt
    }
}

/// An XP award (a run, a mission, a race); the ledger sums to the runner's XP. A runner gets at
/// most one award per `(reason, refID)` (a unique constraint in the store).
public struct RewardEntry: Sendable, Equatable {
    /// Unique per runner: `reason:refID` for the engine's awards (`Self.id(reason:ref:)`).
    public var id: String
    public var userID: UserID
    public var time: EpochSeconds
    public var xp: Int
    /// "run", "mission", "race", "badge".
    public var reason: String
    /// The run, mission or race it is for.
    public var refID: String?

    public init(id: String, userID: UserID, time: EpochSeconds, xp: Int, reason: String, refID: String? = nil) {
        self.id = id; self.userID = userID; self.time = time; self.xp = xp; self.reason = reason; self.refID = refID
    }

    /// An award for `reason` (a fixed word without ':') and the thing it is for: the id is
    /// `reason:ref`, injective because only the last part is free text.
    public init(userID: UserID, time: EpochSeconds, xp: Int, reason: String, ref: String) {
        self.init(id: reason + ":" + ref, userID: userID, time: time, xp: xp, reason: reason, refID: ref)
    }
}

/// A record id that is unique only within one runner's records (runs, assignments), with its
/// runner: the key for maps that hold several runners' records.
public struct RunnerScopedID: Hashable, Sendable, Comparable {
    public let user: UserID
    public let id: String

    public init(user: UserID, id: String) { self.user = user; self.id = id }

    public static func < (a: Self, b: Self) -> Bool { (a.user, a.id) < (b.user, b.id) }
}

/// A badge a runner earned, once per badge.
public struct BadgeAward: Sendable, Equatable {
    public var userID: UserID
    /// Catalog id, e.g. "first_5k".
    public var badgeID: String
    /// When it was earned (the deciding run's start), Unix seconds.
    public var awardedAt: EpochSeconds
    /// The run that earned it.
    public var runID: String?

    public init(userID: UserID, badgeID: String, awardedAt: EpochSeconds, runID: String? = nil) {
        self.userID = userID; self.badgeID = badgeID; self.awardedAt = awardedAt; self.runID = runID
    }
}
