import SurveyRendering
import Testing

@Suite("The one HTML escaper")
struct HTMLEscapingTests {
    @Test("Escapes the five characters that matter in text and quoted attributes, and nothing else")
    func escapesFive() {
        #expect(HTMLEscaping.escape(#"<a href="x" title='y'>&</a>"#) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaping.escape("Año · 27 °C · 😀") == "Año · 27 °C · 😀")
    }

    @Test("A < followed by a combining mark is still escaped")
    func combiningMark() {
        #expect(HTMLEscaping.escape("<\u{338}script>") == "&lt;\u{338}script&gt;")
    }

    @Test("The page template's slot markers never pass through, whoever wrote the text")
    func slotMarkersDropped() {
        #expect(HTMLEscaping.escape("a\u{E000}b\u{E001}c\u{E002}") == "abc\u{E002}")
        var output = "x"
        HTMLEscaping.append("\u{E000}<", to: &output)
        #expect(output == "x&lt;")
    }
}
