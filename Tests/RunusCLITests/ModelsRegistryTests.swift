import Testing
import Foundation
import RunusCore
import Features
import Learning
import Engine
import Server
import Storage
@testable import Service
import Training
@testable import ModelStore
@testable import RunusCLI

/// One small simulated database shared by the suite (simulating is the slow part in debug builds).
private let sharedDatabase: Result<TemporaryDirectory, any Error> = Result {
    let dir = TemporaryDirectory("models-suite")
    let out = CapturedOutput()
    let code = RunusCLI.run(arguments: ["simulate", "--db", dir.file("sim.sqlite"), "--runners", "14", "--days", "60",
                                        "--seed", "6", "--quiet"], output: out)
    guard code == .success else { throw CLIError("simulate failed: \(out.stderr)") }
    return dir
}

@Suite("train --model gbdt, model registry, compare, promote and reload", .serialized)
struct ModelsRegistryTests {
    func database() throws -> (dir: TemporaryDirectory, db: String) {
        let dir = try sharedDatabase.get()
        return (dir, dir.file("sim.sqlite"))
    }

    func train(_ db: String, _ kind: String, to out: String, extra: [String] = []) throws -> CapturedOutput {
        let output = CapturedOutput()
        let code = RunusCLI.run(arguments: ["train", "--db", db, "--model", kind, "--out", out] + extra, output: output)
        #expect(code == .success, "\(output.stderr)")
        return output
    }

    @Test("train --model gbdt writes a calibrated format-4 artifact boosted from an LR and a card with the split and its leakage check, reproducibly")
    func trainGradientBoosting() throws {
        let (dir, db) = try database()
        let out = try train(db, "gbdt", to: dir.file("g1"))
        _ = try train(db, "gbdt", to: dir.file("g2"))
        #expect(out.stderr.contains("num_leaves 7, min_data_in_leaf 20"), "progress on stderr: \(out.stderr)")
        #expect(out.stderr.contains("leakage check passed"))
        #expect(out.stdout.contains("test AUC"))
        let bytes = try #require(fileBytes(dir.file("g1/model.json")))
        #expect(bytes == fileBytes(dir.file("g2/model.json")))
        #expect(fileBytes(dir.file("g1/MODEL_CARD.md")) == fileBytes(dir.file("g2/MODEL_CARD.md")))
        guard case .gradientBoosting(let artifact) = try AnyModelArtifact.decode(bytes) else {
            Issue.record("not a gradient-boosting artifact"); return
        }
        let calibration = try #require(artifact.calibration)
        // Since record 0617 the trees boost from an LR fitted on the training slice, stored with them.
        let initModel = try #require(artifact.initModel).makeModel()
        // Format 4 (an initial model), or 6 when the store's schedule prior is stored too (record 0668).
        #expect(artifact.formatVersion == (artifact.schedulePrior == nil ? 4 : 6))
        #expect(artifact.featureSchemaHash == MissionFeatures.schema.hash)
        let card = String(decoding: try #require(fileBytes(dir.file("g1/MODEL_CARD.md"))), as: UTF8.self)
        #expect(card.contains("**Calibration**") && card.contains("**Leakage check**: passed"))
        // The scorer serves the calibrated probability: the raw score through the stored map.
        let scorer = try GradientBoostingScorer(artifact: artifact)
        let row = [Double](repeating: 0.1, count: MissionFeatures.schema.count)
        #expect(scorer.probabilities([row]) == [calibration.probability(score: initModel.decisionFunction(row: row) + artifact.model.rawScore(row: row))])
        // The report scores it as the daemon does.
        let report = try ReportModel.load(directory: dir.file("g1"))
        let x = Matrix(rowArrays: [row, [Double](repeating: 0.3, count: row.count)])
        #expect(report.model.probabilities(x) == scorer.probabilities([row, [Double](repeating: 0.3, count: row.count)]))
        // --init none: the trees alone, format 3 as before (without a schedule prior).
        _ = try train(db, "gbdt", to: dir.file("g-none"), extra: ["--init", "none", "--schedule-prior", "none"])
        guard case .gradientBoosting(let plain) = try ModelFiles.readAny(from: dir.file("g-none")) else {
            Issue.record("not a gradient-boosting artifact"); return
        }
        #expect(plain.initModel == nil && plain.formatVersion == 3)
        #expect(try GradientBoostingScorer(artifact: plain).probabilities([row]) == [plain.calibration!.probability(score: plain.model.rawScore(row: row))])
    }

    @Test("a forced calibration and lr both train; lr stays what it was (no validation slice)")
    func forcedCalibrationAndLR() throws {
        let (dir, db) = try database()
        _ = try train(db, "gbdt", to: dir.file("iso"), extra: ["--calibration", "isotonic"])
        guard case .gradientBoosting(let a) = try ModelFiles.readAny(from: dir.file("iso")), case .isotonic? = a.calibration else {
            Issue.record("expected an isotonic calibration"); return
        }
        _ = try train(db, "lr", to: dir.file("lr"), extra: ["--schedule-prior", "none"])
        let viaOldPath = try TrainingPipeline.train(examples: TrainingPipeline.examples(store: SQLiteStore(path: db)).examples,
                                                    runners: 14, sources: ["simulated"], options: .init())
        #expect(try ModelFiles.read(from: dir.file("lr")).encode() == viaOldPath.artifact.encode())
        let bad = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--model", "forest", "--out", dir.file("x")], output: bad) == .usage)
        #expect(bad.stderr.contains("known: lr, gbdt"))
    }

    @Test("promote pushes, rollback restores the promotion before, an empty stack serves default; a foreign schema is refused")
    func registry() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let registry = ModelsRegistry(root: dir.path)
        for name in ["default", "a", "b"] {
            try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "v-\(name)"), card: "card \(name)", to: dir.file(name))
        }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "alien", schemaHash: "0123456789abcdef"), card: "", to: dir.file("alien"))
        #expect(try registry.servedDirectory() == dir.file("default"))
        _ = try registry.promote("a", at: 1_800_000_000)
        _ = try registry.promote("b", at: 1_800_000_100)
        #expect(try registry.servedName() == "b")
        #expect(throws: ModelStoreError.self) { try registry.promote("alien", at: 1_800_000_200) }
        #expect(throws: ModelStoreError.self) { try registry.promote("missing", at: 1_800_000_200) }
        #expect(try registry.servedName() == "b")
        #expect(try registry.rollback(at: 1_800_000_300) == ("b", "a"))
        #expect(try registry.servedName() == "a")
        #expect(try registry.rollback(at: 1_800_000_400) == ("a", "default"))
        #expect(throws: ModelStoreError.self) { try registry.rollback(at: 1_800_000_500) }
        let p = try registry.readPromotions()
        #expect(p.promoted.isEmpty && p.history.count == 4)
        #expect(p.history[2]["action"] == "rollback" && p.history[2]["model"] == "a" && p.history[2]["from"] == "b")
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }.isEmpty)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["models", "list", "--models", dir.path], output: out) == .success)
        #expect(out.stdout.contains("| * | default | lr | v-default |") && out.stdout.contains("| alien | lr | alien |"))
    }

    @Test("promote --db shows the candidate against the served model and refuses a worse one without --force")
    func promoteRefusesWorse() throws {
        let (dir, db) = try database()
        let root = dir.file("refuse-registry")
        _ = try train(db, "lr", to: root + "/default")
        // A model of history labels predicts whether a run the runner did not aim at happened to
        // satisfy a mission (record 0600): on tried missions' outcomes it is far too low (log
        // loss 1.9 against 0.6 on this slice). A flat model (--l2 1e9) is no sure loser here: on a
        // 70-mission slice it can beat an LR that 280 missions let overfit.
        _ = try train(db, "lr", to: root + "/history", extra: ["--labels", "history"])
        let refused = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["models", "promote", "history", "--models", root, "--db", db], output: refused) == .failure)
        #expect(refused.stderr.contains("scores worse than the served default") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(refused.stdout.contains("| all | candidate history") && refused.stdout.contains("| all | served default"), "\(refused.stdout)")
        #expect(try ModelsRegistry(root: root).servedName() == "default")
        let forced = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["models", "promote", "history", "--models", root, "--db", db, "--force"], output: forced) == .success,
                "\(forced.stderr)")
        #expect(try ModelsRegistry(root: root).servedName() == "history")
        // Back to the better one: compared with the now-served history model, it is not worse.
        let better = CapturedOutput()
        _ = try train(db, "lr", to: root + "/good")
        #expect(RunusCLI.run(arguments: ["models", "promote", "good", "--models", root, "--db", db], output: better) == .success,
                "\(better.stderr)")
        #expect(try ModelsRegistry(root: root).servedName() == "good")
    }

    @Test("compare prints LR, GBDT and both baselines on the same test slice, overall and per kind")
    func compare() throws {
        let (dir, db) = try database()
        _ = try train(db, "lr", to: dir.file("cmp-lr"))
        _ = try train(db, "gbdt", to: dir.file("cmp-gbdt"))
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["models", "compare", "--db", db, dir.file("cmp-lr"), dir.file("cmp-gbdt")], output: out)
        #expect(code == .success, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n")
        for name in ["lr lr-", "gbdt gbdt-", "baseline: per-kind rate", "baseline: Riegel rule"] {
            #expect(lines.contains { $0.hasPrefix("| all | \(name)") }, "\(name) missing in\n\(out.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("| pace | baseline: Riegel rule") })
        // The per-kind rate ranks nothing within a kind.
        // Every kind's row: AUC 0.5, or "–" where the test slice has one class only (16 kinds
        // share this small simulation's test slice, record 0640); at least one kind has both.
        let rateRows = lines.filter { !$0.hasPrefix("| all") && $0.contains("| baseline: per-kind rate |") }
        let aucs = rateRows.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }.compactMap { $0.count > 3 ? $0[3] : nil }  // kind, name, tried, AUC (split drops the empty edges)
        #expect(!aucs.isEmpty && aucs.allSatisfy { $0 == "0.5" || $0 == "–" } && aucs.contains("0.5"), "\(aucs) \(out.stdout)")
    }

    @Test("simulate → import → train gbdt → promote → model.reload on a running daemon serves the new model, to imported runners too")
    func promoteAndReload() throws {
        let (dir, shared) = try database()
        let root = dir.file("registry")
        // A copy of the simulated runners, plus one runner imported from GPX files.
        let db = dir.file("loop.sqlite")
        try? FileManager.default.removeItem(atPath: db)
        try FileManager.default.copyItem(atPath: shared, toPath: db)
        for (i, km) in [5.0, 6.5, 8.0].enumerated() {
            let track = ImportTestFiles.track(seed: UInt64(40 + i), distance: km * 1000, pace: 320,
                                              start: 1_799_500_000 + Double(i) * 2 * 86_400)
            try ImportTestFiles.write(ImportTestFiles.gpx(track, type: "running"), to: dir.file("loop-in/run-\(i).gpx"))
        }
        let imported = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["import", "--db", db, "--runner", "newcomer", "--time-zone", "Europe/Paris",
                                         dir.file("loop-in")], output: imported) == .success, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 3 runs"), "\(imported.stdout)")
        _ = try train(db, "lr", to: root + "/default")
        let store = try SQLiteStore(path: db)
        // The registry's served model, resolved again at every reload, as `runus serve --models` does.
        let source = ModelSource.registry(root)
        let reloader = ModelReloader(loadModel: { try ModelFiles.readAny(from: try source.directory()) }, store: store,
                                     clock: FixedClock(1_800_000_000), startedAt: 1_799_999_990, stats: Stats(), log: { _ in })
        var configuration = ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)])
        configuration.log = { _ in }
        let server = LineServer(configuration: configuration,
                                router: try reloader.initialRouter(model: try ModelFiles.readAny(from: try ModelSource.registry(root).directory())))
        reloader.attach(server)
        let address = try server.start()[0]
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread { try? server.run(); finished.signal() }
        defer { server.stop(); _ = finished.wait(timeout: .now() + 10); try? store.close() }
        let client = try LineClient(address: address, timeout: .seconds(20))
        #expect(try client.call(["op": "model.info"])["result"]?["kind"] == "lr")

        _ = try train(db, "gbdt", to: root + "/gbdt-1")
        let promoted = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["models", "promote", "gbdt-1", "--models", root], output: promoted) == .success, "\(promoted.stderr)")
        let version = try ModelFiles.readAny(from: root + "/gbdt-1").modelVersion
        let reloaded = try client.call(["op": "model.reload"])
        #expect(reloaded["result"]?["model_version"] == .string(version), "\(JSONWriter.string(reloaded))")
        let info = try client.call(["op": "model.info"])["result"]
        #expect(info?["kind"] == "gbdt" && info?["model_type"] == "gradient_boosting" && info?["model_version"] == .string(version))
        #expect(info?["calibration"] != "none")
        // Dates within the runner's yesterday…tomorrow of the daemon's clock (record 0524).
        let today = try client.call(["op": "missions.today", "user": "runner-0001"])
        #expect(today["result"]?["model_version"] == .string(version), "\(JSONWriter.string(today))")
        // The imported runner gets missions from the promoted model, sized from the imported runs.
        let newcomer = try client.call(["op": "missions.today", "user": "newcomer", "date": "2027-01-14"])
        #expect(newcomer["result"]?["model_version"] == .string(version), "\(JSONWriter.string(newcomer))")
        #expect(newcomer["result"]?["missions"]?.arrayValue?.isEmpty == false, "\(JSONWriter.string(newcomer))")

        #expect(RunusCLI.run(arguments: ["models", "rollback", "--models", root], output: CapturedOutput()) == .success)
        #expect(try client.call(["op": "model.reload"])["result"]?["previous_model_version"] == .string(version))
        #expect(try client.call(["op": "model.info"])["result"]?["kind"] == "lr")
    }
}
