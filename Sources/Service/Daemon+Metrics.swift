import RunusCore
import Server

/// What `--metrics-listen` shows of a daemon beyond its server's own families (issue 53), and
/// whether it is ready to serve.
extension Daemon {
    /// The server's families, then the model served and the race rooms.
    public func metricFamilies() -> [MetricFamily] {
        let (rooms, runners) = races.service.openRoomCounts()
        return server.metricFamilies() + [
            MetricFamily(name: "runus_model_info", help: "The model served (its version as a label).", kind: .gauge,
                         samples: [.init(name: "runus_model_info", labels: [("version", reloader.servedVersion)], value: 1)]),
            .single("runus_race_rooms", "Race rooms not finished.", .gauge, Double(rooms)),
            .single("runus_race_runners", "Runners in race rooms not finished who have not left.", .gauge, Double(runners)),
        ]
    }

    /// Ready when the store answers a read (a model is always loaded once the daemon has
    /// started: a failed reload keeps the one served). The reason names what failed.
    public func readiness() -> (ready: Bool, reason: String) {
        do {
            _ = try store.user(id: "")
            return (true, "")
        } catch let failure as any StoreFailure {
            return (false, "the store does not answer: \(failure.unavailableReason ?? "\(failure)")")
        } catch {
            return (false, "the store does not answer: \(error)")
        }
    }
}
