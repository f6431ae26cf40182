import RunusCore
import Missions
import Engine
import Server

/// `missions.custom`: a mission the runner sets for the day (record 0535).
extension DaemonOperations {
    func missionsCustom(_ request: Request) throws -> JSONValue {
        let userID = try request.string("user")
        guard !userID.isEmpty else { throw RequestError.badRequest("missions.custom: parameter 'user' is empty", field: "user") }
        let spec = try Request.spec(request.optional("spec"), op: "missions.custom", field: "spec")
        let day = try request.day("date")
        let answer = try WireErrors.engine("missions.custom") {
            try missions.custom(user: userID, spec: spec, day: day, now: clock.now())
        }
        return [
            "user": .string(userID), "day": .string(answer.day.description),
            "model_version": .string(missions.modelVersion),
            "mission": Self.todayMissionJSON(answer.mission),
            "reason": answer.reason.map { .string($0) } ?? .null,
        ]
    }
}
