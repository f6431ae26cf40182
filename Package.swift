// swift-tools-version:6.0
// RunUs Missions engine: one package, one command (`runus`).
// Module rules (see docs/architecture.md): pure modules never do I/O; each C library and each
// OS surface has exactly one importing module.
import PackageDescription

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
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite",
                       pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSysShims", path: "Sources/CSysShims"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib",
                       pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Pure modules.
        .target(name: "RunusCore"),
        // -fno-math-errno: libm's sin and cos of one angle become one sincos call (the same bits,
        // checked over a dense sweep; record 0162).
        .target(name: "Tracking", dependencies: ["RunusCore"],
                swiftSettings: [.unsafeFlags(["-Xcc", "-fno-math-errno"])]),
        .target(name: "TrackFormats", dependencies: ["RunusCore", "Tracking", "CZlib"]),
        .target(name: "Missions", dependencies: ["RunusCore", "Tracking"]),
        .target(name: "Learning", dependencies: ["RunusCore", "CBLAS", "CLAPACKE"]),
        .target(name: "Features", dependencies: ["RunusCore", "Tracking", "Missions"]),
        .target(name: "Engine", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Missions", "Features", "Learning"]),
        .target(name: "Simulation", dependencies: ["RunusCore", "Tracking", "TrackFormats", "Missions"]),
        .target(name: "Reports", dependencies: ["RunusCore", "Learning"]),
        // Labelled data, time splits, the LR and GBDT pipelines, baselines, comparison, model cards,
        // policy simulation and report data: pure given the store protocols (no Storage).
        .target(name: "Training", dependencies: [
            "RunusCore", "Tracking", "TrackFormats", "Missions", "Features", "Learning", "Engine", "Simulation", "Reports",
        ]),

        // I/O modules.
        .target(name: "Storage", dependencies: ["RunusCore", "CSQLite"]),
        .target(name: "Server", dependencies: ["RunusCore", "CSysShims"]),
        .target(name: "RunusCLI", dependencies: [
            "RunusCore", "Tracking", "TrackFormats", "Missions", "Learning", "Features",
            "Engine", "Simulation", "Storage", "Server", "Reports", "Training",
        ]),
        .executableTarget(name: "runus", dependencies: ["RunusCLI"]),
        // `make bench-learn` only: our learners on the peer benchmark's data.
        .executableTarget(name: "runus-bench-learn", dependencies: ["Learning"]),

        .testTarget(name: "RunusCoreTests", dependencies: ["RunusCore"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking"]),
        .testTarget(name: "TrackFormatsTests", dependencies: ["TrackFormats"]),
        .testTarget(name: "MissionsTests", dependencies: ["Missions"]),
        .testTarget(name: "LearningTests", dependencies: ["Learning"]),
        .testTarget(name: "FeaturesTests", dependencies: ["Features"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage"], exclude: ["Fixtures"]),
        .testTarget(name: "ServerTests", dependencies: ["Server"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Storage", "Simulation"]),
        .testTarget(name: "RunusCLITests", dependencies: ["RunusCLI"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports"], exclude: ["Golden"]),
    ]
)
