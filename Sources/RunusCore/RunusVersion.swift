/// The engine's version, as `runus --version` prints it and `health` answers it.
public enum RunusVersion {
    public static let current = "0.1.0"
}
