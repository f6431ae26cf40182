import Testing
import ActivityLab

@Suite("Confusion matrix")
struct ConfusionMatrixTests {
    @Test("the confusion matrix F1 follows its definition")
    func confusionF1() {
        var m = ConfusionMatrix()
        m.add(truth: .walk, predicted: .walk, count: 8)
        m.add(truth: .run, predicted: .vehicle, count: 2)
        m.add(truth: .vehicle, predicted: .vehicle, count: 9)
        m.add(truth: .vehicle, predicted: .stationary, count: 1)
        let b = m.footVsVehicle(excludingStationary: false)
        // vehicle: tp 9, fp 2, fn 1 → 18/21; foot: tp 8 (+0), fp 1, fn 2 → 16/19.
        #expect(abs(b.vehicleF1 - 18.0 / 21) < 1e-12)
        #expect(abs(b.footF1 - 16.0 / 19) < 1e-12)
        #expect(m.footVsVehicle(excludingStationary: true).windows == 19)
    }
}
