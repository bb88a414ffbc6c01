import Testing
@testable import SurveyRendering

@Suite("MarkupChecker")
struct MarkupCheckerTests {
    let checker = MarkupChecker(
        allowlist: [
            "html": ["lang"],
            "head": [],
            "meta": ["charset"],
            "title": [],
            "body": [],
            "main": [],
            "div": ["class"],
            "p": [],
            "a": ["href"],
            "*": ["id"],
        ],
        allowsDataAndAriaAttributes: true
    )

    private func page(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8" /><title>Survey</title></head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    @Test func acceptsAWellFormedAllowedDocument() {
        let doc = page(#"<main id="m"><div class="x" data-step="1" aria-live="polite"><p>Hi &amp; &#160;bye &lt;3</p><a href="/next">Next</a></div></main>"#)
        #expect(checker.check(doc) == [])
    }

    @Test func acceptsTheHTMLDoctype() {
        #expect(checker.check("<!DOCTYPE html><html><body><p>x</p></body></html>") == [])
        #expect(checker.check("<!DOCTYPE html>\n<html/>") == [])
    }

    @Test func reportsAMissingCloseTag() {
        let problems = checker.check(page("<div><p>unclosed</div>"))
        #expect(problems.count == 1)
        // The first error, with its line, not libxml2's knock-on "Premature end of data".
        #expect(problems.first == "not well-formed: line 5: Opening and ending tag mismatch: p line 5 and div")
    }

    @Test func reportsOtherWellFormednessErrors() {
        #expect(checker.check("")  == ["not well-formed: line 1: Document is empty"])
        #expect(checker.check(page("<p>a</p>") + "<p>")
            == ["not well-formed: line 7: Extra content at the end of the document"])
        #expect(checker.check(page(#"<p class=x>a</p>"#)).first?.hasPrefix("not well-formed: line 5:") == true)
    }

    @Test func rejectsHTMLNamedEntitiesBecauseThereIsNoDTD() {
        #expect(checker.check(page("<p>&nbsp;</p>")) == ["not well-formed: line 5: Entity 'nbsp' not defined"])
    }

    @Test func reportsADisallowedElement() {
        #expect(checker.check(page("<p><blink>now</blink><blink>again</blink></p>")) == ["element <blink> is not allowed"])
    }

    @Test func reportsADisallowedAttribute() {
        #expect(checker.check(page(#"<div onclick="steal()" class="ok">x</div>"#))
            == ["attribute onclick on <div> is not allowed"])
    }

    @Test func reportsEachProblemOnceInDocumentOrder() {
        let doc = page(#"<div style="a" onclick="b"><script>x</script><div style="c">y</div></div><blink/>"#)
        #expect(checker.check(doc) == [
            "attribute style on <div> is not allowed",
            "attribute onclick on <div> is not allowed",
            "element <script> is not allowed",
            "element <blink> is not allowed",
        ])
    }

    @Test func dataAndAriaAttributesNeedTheFlag() {
        let strict = MarkupChecker(allowlist: ["p": []])
        #expect(strict.check(#"<p data-x="1" aria-hidden="true">x</p>"#) == [
            "attribute data-x on <p> is not allowed",
            "attribute aria-hidden on <p> is not allowed",
        ])
        let relaxed = MarkupChecker(allowlist: ["p": []], allowsDataAndAriaAttributes: true)
        #expect(relaxed.check(#"<p data-x="1" aria-hidden="true">x</p>"#) == [])
        #expect(relaxed.check(#"<p data-="1">x</p>"#) == ["attribute data- on <p> is not allowed"])
    }

    @Test func globalAttributesDoNotAllowElements() {
        #expect(checker.check(page(#"<p id="a">x</p>"#)) == [])
        #expect(checker.check(page(#"<span id="a">x</span>"#)) == ["element <span> is not allowed"])
        #expect(checker.check("<*/>").first?.hasPrefix("not well-formed") == true)
    }

    @Test func namesAreCaseSensitiveAndKeepTheirPrefix() {
        #expect(checker.check(page("<P>x</P>")) == ["element <P> is not allowed"])
        let doc = page(#"<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><p xml:lang="en">x</p></svg:svg>"#)
        #expect(checker.check(doc) == [
            "element <svg:svg> is not allowed",
            "attribute xml:lang on <p> is not allowed",
        ])
    }

    @Test func doesNotLoadExternalEntities() {
        let doc = #"<!DOCTYPE html [<!ENTITY x SYSTEM "file:///etc/passwd">]><html><body><p>&x;</p></body></html>"#
        #expect(checker.check(doc) == [])
    }

    @Test func concurrentChecksKeepTheirOwnErrors() async {
        let bad = page("<div><p>unclosed</div>")
        let badWant = checker.check(bad)
        let mixed = page("<blink>x</blink>")
        let mixedWant = checker.check(mixed)
        let checker = self.checker
        let mismatches = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for index in 0..<500 {
                group.addTask {
                    index.isMultiple(of: 2) ? checker.check(bad) == badWant : checker.check(mixed) == mixedWant
                }
            }
            var mismatches = 0
            for await same in group where !same { mismatches += 1 }
            return mismatches
        }
        #expect(mismatches == 0)
    }
}
