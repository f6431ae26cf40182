// Placeholder until the module lands; replaced by its owner.
public enum RunusCLI {
    public static func main(arguments: [String]) -> Never {
        fatalError("runus is not wired yet")
    }
}
