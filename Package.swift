// swift-tools-version:6.0
// RunUs Missions engine: one package, one command (`runus`).
// Module rules (see docs/architecture.md): pure modules never do I/O; each C library and each
// OS surface has exactly one importing module.
import PackageDescription

// `make test` builds in debug, and its tests simulate and train hundreds of runners: unoptimised,
// the computing modules run them about 12 times slower than the release build serves them, which
// was most of CI's 20 minutes. So debug builds compile those modules with -O too (the same code
// the daemon runs; no `assert` is used, and -O keeps overflow checks and preconditions), record
// 0011. RUNUS_ONONE=1 keeps them unoptimised, for stepping through them in a debugger.
let optimisedInDebug: [SwiftSetting] = Context.environment["RUNUS_ONONE"] == "1"
    ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "runus",
    products: [
        .executable(name: "runus", targets: ["runus"]),
    ],
    targets: [
        // C libraries from Debian, one importer each.
        .systemLibrary(name: "CBLAS", path: "Sources/CBLAS",
                       pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CLAPACKE", path: "Sources/CLAPACKE",
                       pkgConfig: "lapacke", providers: [.apt(["liblapacke-dev"])]),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ",
                       pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite",
                       pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSysShims", path: "Sources/CSysShims"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib",
                       pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Pure modules.
        .target(name: "RunusCore", swiftSettings: optimisedInDebug),
        // -fno-math-errno: libm's sin and cos of one angle become one sincos call (the same bits,
        // checked over a dense sweep; record 0162).
        .target(name: "Tracking", dependencies: ["RunusCore"],
                swiftSettings: [.unsafeFlags(["-Xcc", "-fno-math-errno"])] + optimisedInDebug),
        .target(name: "TrackFormats", dependencies: ["RunusCore", "Tracking", "CZlib"], swiftSettings: optimisedInDebug),
        // The activity classifier's lab: forest training, synthetic tracks, held-out evaluation,
        // labelled-track tables. Tracking runs the shipped forest; this trains and scores it.
        .target(name: "ActivityLab", dependencies: ["RunusCore", "Tracking"], swiftSettings: optimisedInDebug),
        .target(name: "Missions", dependencies: ["RunusCore", "Tracking"], swiftSettings: optimisedInDebug),
        .target(name: "Learning", dependencies: ["RunusCore", "CBLAS", "CLAPACKE"], swiftSettings: optimisedInDebug),
        .target(name: "Features", dependencies: ["RunusCore", "Tracking", "Missions"], swiftSettings: optimisedInDebug),
        .target(name: "Engine", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Missions", "Features", "Learning"], swiftSettings: optimisedInDebug),
        .target(name: "Simulation", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Missions"], swiftSettings: optimisedInDebug),
        .target(name: "Reports", dependencies: ["RunusCore", "Learning"], swiftSettings: optimisedInDebug),
        // Seeded generators of pathological requests and track-file mutations, the answer
        // checker and the minimizer of `make fuzz` (record 0540): pure, like the modules above.
        .target(name: "Fuzzing", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Missions"], swiftSettings: optimisedInDebug),
        // Labelled data, time splits, the LR and GBDT pipelines, baselines, comparison, model cards,
        // policy simulation and report data: pure given the store protocols (no Storage).
        .target(name: "Training", dependencies: [
            "RunusCore", "Tracking", "TrackFormats", "Missions", "Features", "Learning", "Engine", "Simulation", "Reports",
        ], swiftSettings: optimisedInDebug),

        // I/O modules.
        .target(name: "Storage", dependencies: ["RunusCore", "CSQLite"]),
        // The same store protocols on a PostgreSQL server (record 0406): the only libpq user.
        .target(name: "PostgresStorage", dependencies: ["RunusCore", "Storage", "CLibPQ"]),
        .target(name: "Server", dependencies: ["RunusCore", "CSysShims"]),
        // Files of the shared datasets and track files on disk: the runners' activities and their
        // import into a store, the reference suites' watch totals, the labelled tracks.
        .target(name: "Datasets", dependencies: [
            "RunusCore", "Tracking", "TrackFormats", "ActivityLab", "Engine", "Storage", "Training",
        ]),
        // Model folders on disk: artifact and card files, the registry and its promotion file.
        .target(name: "ModelStore", dependencies: ["RunusCore", "Learning", "Engine"]),
        // The daemon's application layer: operations, caches, reloader, race clock, composition root.
        .target(name: "Service", dependencies: [
            "RunusCore", "Tracking", "TrackFormats", "Missions", "Learning", "Features", "Engine", "Server",
        ]),
        .target(name: "RunusCLI", dependencies: [
            "ActivityLab",   // segmentation-model and segmentation-report
            "RunusCore", "Tracking", "TrackFormats", "Missions", "Learning", "Features",
            "Engine", "Simulation", "Storage", "PostgresStorage", "Server", "Reports", "Service", "Training", "Datasets", "ModelStore",
        ]),
        .executableTarget(name: "runus", dependencies: ["RunusCLI"]),
        // `make bench` and `make bench-store` only: batch metrics and the live tracker as the
        // daemon runs it, on track files; the store's ingestion work on SQLite and PostgreSQL.
        .executableTarget(name: "runus-bench", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Engine", "Storage", "PostgresStorage"]),
        // `make bench-learn` only: our learners on the peer benchmark's data.
        .executableTarget(name: "runus-bench-learn", dependencies: ["Learning"]),
        // `make fuzz` only: the fuzzing driver (daemon processes, connections, RSS, watchdog).
        .executableTarget(name: "runus-fuzz", dependencies: ["Fuzzing", "Server", "RunusCore", "TrackFormats"]),

        .testTarget(name: "RunusCoreTests", dependencies: ["RunusCore"]),
        // TrackingTests draw synthetic legs and read labelled tracks with the lab's generators.
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "ActivityLab"]),
        .testTarget(name: "ActivityLabTests", dependencies: ["ActivityLab"]),
        .testTarget(name: "TrackFormatsTests", dependencies: ["TrackFormats"]),
        .testTarget(name: "MissionsTests", dependencies: ["Missions"]),
        .testTarget(name: "LearningTests", dependencies: ["Learning"]),
        .testTarget(name: "FeaturesTests", dependencies: ["Features"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage"], exclude: ["Fixtures"]),
        // The store conformance suite (SQLite and PostgreSQL alike) and PostgreSQL's own tests.
        .testTarget(name: "PostgresStorageTests", dependencies: ["PostgresStorage", "Storage"]),
        .testTarget(name: "ServerTests", dependencies: ["Server"]),
        .testTarget(name: "RunusCLITests", dependencies: ["RunusCLI", "Service", "Training", "Datasets", "ModelStore", "PostgresStorage"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Storage", "Simulation"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports"], exclude: ["Golden"]),
        .testTarget(name: "FuzzingTests", dependencies: ["Fuzzing", "TrackFormats"]),
    ]
)
