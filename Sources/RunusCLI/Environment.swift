import Foundation

/// The one place the command line reads environment variables.
enum Environment {
    /// The shared datasets folder: the argument, else `$RUNUS_DATASETS`, else `../shared/datasets`.
    static func datasets(_ argument: String?) -> String {
        argument ?? ProcessInfo.processInfo.environment["RUNUS_DATASETS"] ?? "../shared/datasets"
    }

    /// The runners dataset: the argument (the folder itself), else `datasets(nil)/runners`.
    static func runnersFolder(_ argument: String?) -> String {
        argument ?? datasets(nil) + "/runners"
    }
}
