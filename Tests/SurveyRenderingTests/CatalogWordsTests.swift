import SurveyRendering
import Testing

@Suite("Words from the catalog")
struct CatalogWordsTests {
    @Test("The progress line is the catalog's, with both numbers in place")
    func progress() {
        #expect(Catalog(language: "en").progress(2, of: 15) == "2 of 15")
        // Spanish has no entry of its own yet: it falls back to English, as before.
        #expect(Catalog(language: "es").progress(1, of: 3) == "1 of 3")
    }

}
