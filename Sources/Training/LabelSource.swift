/// Which labels training uses (record 0600): outcomes of missions the app offered and the
/// runner tried, candidates checked against each real run from the runner's past alone, or both.
public enum LabelSource: String, CaseIterable, Sendable {
    case logged, history, both

    public static let names = allCases.map(\.rawValue).joined(separator: "|")
}
