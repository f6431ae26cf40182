import Testing
import ActivityLab

@Suite("Labelled track tables")
struct LabelledTrackParserTests {
    @Test("a corrupt GeoLife line is an error naming the line")
    func corruptLine() {
        #expect(throws: LabelledTrackError.self) {
            try LabelledTrackParser.geoLifePoints("user,segment_id,mode,t,lat,lon,alt_m\n010,a,walk,x,1,2,\n")
        }
    }
}
