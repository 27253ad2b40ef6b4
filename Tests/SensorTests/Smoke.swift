import Testing
import Sensor

@Test func SensorBuilds() {
    #expect(Bool(true))
}
