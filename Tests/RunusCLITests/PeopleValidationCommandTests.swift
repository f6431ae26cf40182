import Testing
import RunusCore
import Learning
@testable import RunusCLI

@Suite("validation by person on the command line", .serialized)
struct PeopleValidationCommandTests {
    @Test("train --people-folds adds the by-person table and metrics, leaving the time-split part of card and artifact as without it; models compare prints it too")
    func trainAndCompareByPerson() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("p.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "12", "--days", "60", "--seed", "4", "--quiet"],
                             output: CapturedOutput()) == .success)
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("plain")], output: CapturedOutput()) == .success)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("people"), "--people-folds", "3", "--kind-calibration", "yes"],
                             output: out) == .success, "\(out.stderr)")
        let plainCard = String(decoding: try #require(fileBytes(dir.file("plain/MODEL_CARD.md"))), as: UTF8.self)
        let card = String(decoding: try #require(fileBytes(dir.file("people/MODEL_CARD.md"))), as: UTF8.self)
        #expect(card.hasPrefix(plainCard))
        #expect(card.contains("## Held out as people") && card.contains("3 folds of 12 runners"))
        // The schedule prior (record 0668) is learnt by default, on its own 5 folds of people.
        #expect(plainCard.contains("## Schedule prior") && plainCard.contains("5 folds of people"))
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("noprior"), "--schedule-prior", "none"],
                             output: CapturedOutput()) == .success)
        let noPriorCard = String(decoding: try #require(fileBytes(dir.file("noprior/MODEL_CARD.md"))), as: UTF8.self)
        let noPrior = try ModelArtifact.decode(try #require(fileBytes(dir.file("noprior/model.json"))))
        #expect(!noPriorCard.contains("Schedule prior") && plainCard.hasPrefix(noPriorCard))
        #expect(noPrior.schedulePrior == nil && noPrior.metrics["schedule_prior_cv_log_loss"] == nil)
        let plain = try ModelArtifact.decode(try #require(fileBytes(dir.file("plain/model.json"))))
        let people = try ModelArtifact.decode(try #require(fileBytes(dir.file("people/model.json"))))
        #expect(people.coefficients == plain.coefficients && people.metrics["test_auc"] == plain.metrics["test_auc"])
        #expect(people.metrics["people_folds"] == 3 && people.metrics["people_auc"] != nil && plain.metrics["people_auc"] == nil)
        #expect(plain.metrics["schedule_prior_cv_log_loss"] != nil && plain.metrics["schedule_prior_cv_log_loss_none"] != nil)
        #expect(out.stderr.contains("fold 3/3"))
        let compare = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["models", "compare", "--db", db, "--people-folds", "3", dir.file("people")], output: compare) == .success,
                "\(compare.stderr)")
        #expect(compare.stdout.contains("Test slice:") && compare.stdout.contains("Held out as people"))
    }

    @Test("bad by-person options are refused naming the option")
    func refusesBadOptions() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("q.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "8", "--days", "40", "--seed", "4", "--quiet"],
                             output: CapturedOutput()) == .success)
        for (args, option) in [(["--people-folds", "1"], "--people-folds"), (["--kind-calibration", "yes"], "--kind-calibration"),
                               (["--people-folds", "2", "--people-inner-folds", "1"], "--people-inner-folds"),
                               (["--schedule-prior", "yes"], "--schedule-prior")] {
            let out = CapturedOutput()
            #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("x")] + args, output: out) != .success)
            #expect(out.stderr.contains(option), "\(out.stderr)")
        }
    }
}
