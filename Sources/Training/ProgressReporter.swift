/// Where long reads report how far they are (the CLI draws a bar or prints lines on stderr).
/// Called on the calling thread only, never from parallel work.
public protocol ProgressReporter: AnyObject {
    /// `done` of `total` units (runs, files) finished, 0 <= done <= total.
    func update(done: Int, total: Int)
    func finish()
}
