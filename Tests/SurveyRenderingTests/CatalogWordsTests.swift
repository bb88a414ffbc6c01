import SurveyRendering
import Testing

@Suite("Words from the catalog")
struct CatalogWordsTests {
    @Test("The progress line is the catalog's, with both numbers in place")
    func progress() {
        #expect(Catalog(language: "en").progress(2, of: 15) == "2 of 15")
        #expect(Catalog(language: "es").progress(1, of: 3) == "1 de 3")
        #expect(Catalog(language: "ar").progress(1, of: 3) == "1 من 3")
    }

}
