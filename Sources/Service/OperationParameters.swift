/// The parameters each operation takes besides `op` and `id`, as `spec/protocol/*.json` lists
/// them (a test keeps the two the same): the router refuses any other top-level key, naming
/// it, so a misspelt `weigth_kg` is an error rather than a request that changes nothing
/// (issue 53, record 0560).
enum OperationParameters {
    static let table: [String: Set<String>] = [
        "badges.catalog": ["user"],
        "goals.recommend": ["user"],
        "health": [],
        "history": ["user", "from", "to", "bucket"],
        "missions.custom": ["user", "spec", "date"],
        "missions.evaluate": ["spec", "points", "utc_offset_s"],
        "missions.history": ["user", "from", "to", "kind", "status", "offset", "limit"],
        "missions.progress": ["user", "date", "points"],
        "missions.score": ["user", "specs", "date"],
        "missions.today": ["user", "date", "k", "refresh"],
        "model.info": [],
        "model.reload": [],
        "progress": ["user"],
        "race.cancel": ["race_id", "user"],
        "race.create": ["user", "name", "distance_m", "start_time", "capacity", "public"],
        "race.join": ["race_id", "user", "invite"],
        "race.leave": ["race_id", "participant_token"],
        "race.list": ["min_distance_m", "max_distance_m", "from", "to", "limit", "cursor"],
        "race.position": ["race_id", "participant_token", "points"],
        "race.results": ["race_id", "invite"],
        "race.watch": ["race_id", "invite"],
        "runs.get": ["user", "run_id", "track"],
        "runs.ingest": ["user", "run_id", "points", "summary"],
        "stats": [],
        "users.delete": ["user"],
        "users.export": ["user", "tracks"],
        "users.get": ["user"],
        "users.upsert": ["user", "time_zone", "birth_year", "sex", "height_cm", "weight_kg", "display_name"],
    ]
}
