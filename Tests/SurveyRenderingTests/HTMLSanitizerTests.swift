import Testing
@testable import SurveyRendering

@Suite("HTMLSanitizer")
struct HTMLSanitizerTests {
    private func clean(_ fragment: String) -> String {
        HTMLSanitizer.sanitize(fragment).html.html
    }

    // MARK: - The cases in swift-stack.md §libxml2 item 5

    @Test func dropsDisallowedAttributesAndKeepsTheElement() {
        let result = HTMLSanitizer.sanitize(#"<p onclick="steal()" style="color:red">Hello</p>"#)
        #expect(result.html.html == "<p>Hello</p>")
        #expect(result.removed == ["attribute onclick on <p>", "attribute style on <p>"])
    }

    @Test func removesScriptAndIframeWithTheirContent() {
        let result = HTMLSanitizer.sanitize(#"a<script>alert(1)</script>b<iframe src="https://x">inside</iframe>c"#)
        #expect(result.html.html == "abc")
        #expect(result.removed == ["element <script>", "element <iframe>"])
    }

    @Test(arguments: ["style", "object", "template", "noscript", "svg", "math"])
    func removesDangerousElementsWithTheirContent(_ name: String) {
        let result = HTMLSanitizer.sanitize("<\(name)><p>hidden</p></\(name)>shown")
        #expect(result.html.html == "shown")
        #expect(result.removed == ["element <\(name)>"])
    }

    @Test func unwrapsUnknownElementsKeepingTheirContent() {
        let result = HTMLSanitizer.sanitize(#"<div class="x"><span>in</span> <b>bold</b></div>"#)
        #expect(result.html.html == "in <b>bold</b>")
        #expect(result.removed == ["element <div> (content kept)", "element <span> (content kept)"])
    }

    @Test func removesJavascriptHref() {
        let result = HTMLSanitizer.sanitize(#"<a href="javascript:alert(1)">x</a>"#)
        #expect(result.html.html == "<a>x</a>")
        #expect(result.removed == [#"href "javascript:alert(1)" on <a>"#])
    }

    @Test func removesObfuscatedJavascriptHref() {
        // Leading space, mixed case and a tab character reference inside the scheme.
        let result = HTMLSanitizer.sanitize(#"<a href=" JaVa&#09;script:alert(1)">x</a>"#)
        #expect(result.html.html == "<a>x</a>")
        #expect(result.removed == [#"href " JaVa\tscript:alert(1)" on <a>"#])
    }

    @Test func closesUnclosedTags() {
        #expect(clean("<p><b>bold <i>both") == "<p><b>bold <i>both</i></b></p>")
        #expect(clean("<ul><li>one<li>two</ul>") == "<ul><li>one</li><li>two</li></ul>")
    }

    @Test func dropsComments() {
        let result = HTMLSanitizer.sanitize("a<!-- secret -->b<!--[if IE]><script>x</script><![endif]-->")
        #expect(result.html.html == "ab")
        #expect(result.removed == ["comment"])
    }

    @Test func keepsUTF8AsIs() {
        #expect(clean("<p>Grüße, 日本語, emoji 🎉, café</p>") == "<p>Grüße, 日本語, emoji 🎉, café</p>")
        #expect(clean("Grüße 🎉") == "Grüße 🎉")
    }

    // MARK: - More elements and attributes

    @Test func removesImageWithEventHandler() {
        let result = HTMLSanitizer.sanitize("<img src=x onerror=alert(1)>")
        #expect(result.html.html == "")
        #expect(result.removed == ["element <img>"])
    }

    @Test(arguments: ["https://example.org/a?b=1", "http://example.org/", "mailto:team@example.org", "HTTPS://EXAMPLE.ORG"])
    func keepsAllowedHref(_ href: String) {
        let result = HTMLSanitizer.sanitize(#"<a href="\#(href)" target="_blank">link</a>"#)
        #expect(result.html.html == #"<a href="\#(href)">link</a>"#)
        #expect(result.removed == ["attribute target on <a>"])
    }

    @Test(arguments: [
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
        "/relative/path",
        "#fragment",
        "//evil.example/",
        "java\nscript:alert(1)",
        "file:///etc/passwd",
        "ftp://example.org/",
        "",
    ])
    func removesOtherHrefs(_ href: String) {
        let result = HTMLSanitizer.sanitize(#"<a href="\#(href)">x</a>"#)
        #expect(result.html.html == "<a>x</a>")
        #expect(result.removed == ["href \(href.debugDescription) on <a>"])
    }

    @Test func decodesCharacterReferencesBeforeCheckingTheScheme() {
        let encoded = "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)"
        #expect(clean(#"<a href="\#(encoded)">x</a>"#) == "<a>x</a>")
        #expect(clean(#"<a href="https&#58;//example.org/">x</a>"#) == #"<a href="https://example.org/">x</a>"#)
    }

    @Test func writesTheNormalisedHrefThatWasChecked() {
        #expect(clean("<a href=\"  https://example.org/\u{1}  \">x</a>") == #"<a href="https://example.org/">x</a>"#)
        #expect(clean(#"<a href="https://example.org/?a=1&b=2">x</a>"#) == #"<a href="https://example.org/?a=1&amp;b=2">x</a>"#)
    }

    @Test func keepsNestedLists() {
        let list = "<ul><li>one<ol><li>a</li><li>b</li></ol></li><li>two</li></ul>"
        #expect(clean(list) == list)
    }

    @Test func keepsEveryAllowedElement() {
        let html = "<p><strong>s</strong><em>e</em><b>b</b><i>i</i><u>u</u><br><a>a</a></p><ol><li>x</li></ol>"
        let result = HTMLSanitizer.sanitize(html)
        #expect(result.html.html == html)
        #expect(result.removed.isEmpty)
        #expect(clean("line<br/>break") == "line<br>break")
    }

    @Test func lowerCasesNames() {
        #expect(clean(#"<P><A HREF="https://x">u</A></P>"#) == #"<p><a href="https://x">u</a></p>"#)
    }

    // MARK: - Text and escaping

    @Test func characterReferencesRoundTrip() {
        #expect(clean("Tom &amp; Jerry") == "Tom &amp; Jerry")
        #expect(clean("<p>&lt;b&gt; is not bold</p>") == "<p>&lt;b&gt; is not bold</p>")
        #expect(clean("&#x3C;script&#x3E;") == "&lt;script&gt;")
        #expect(clean("<p>&quot;quoted&quot; &#39;single&#39;</p>") == "<p>&quot;quoted&quot; &#39;single&#39;</p>")
        #expect(clean("caf&eacute;") == "café")
    }

    @Test func escapesLessThanInText() {
        #expect(clean("1 < 2 & 3 > 2") == "1 &lt; 2 &amp; 3 &gt; 2")
        #expect(clean("<p>a < b</p>") == "<p>a &lt; b</p>")
        #expect(clean("<") == "&lt;")
    }

    @Test func plainTextIsJustEscaped() {
        for text in ["Plain label", "It's \"quoted\"", "  spaced  ", "a > b", ""] {
            let result = HTMLSanitizer.sanitize(text)
            #expect(result.html == SanitizedHTML.escaping(text))
            #expect(result.removed.isEmpty)
        }
    }

    @Test func escapingEscapesTheFiveCharacters() {
        #expect(SanitizedHTML.escaping(#"<a href="x">Tom & 'Jerry'</a>"#).html
            == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(SanitizedHTML.escaping("Grüße").html == "Grüße")
        // A combining mark makes "<" part of a larger Character; it is still escaped.
        #expect(SanitizedHTML.escaping("<\u{338}script>").html == "&lt;\u{338}script&gt;")
        #expect(SanitizedHTML.empty.html == "")
        #expect(SanitizedHTML.escaping("x").description == "x")
    }

    @Test func dropsNULCharacters() {
        #expect(clean("a\u{0}b<b>c</b>") == "ab<b>c</b>")
    }

    @Test func ignoresAnEncodingDeclaredInsideTheFragment() {
        let result = HTMLSanitizer.sanitize(#"<meta charset="iso-8859-1">Grüße <b>日本</b>"#)
        #expect(result.html.html == "Grüße <b>日本</b>")
        #expect(result.removed == ["element <meta>"])
    }

    @Test func walksContentTheParserMovesOutOfBody() {
        #expect(clean("a</body>b</html>c") .contains("c"))
        #expect(clean("<head><script>x</script></head>h") == "h")
    }

    @Test func dropsProcessingInstructions() {
        let result = HTMLSanitizer.sanitize("<?php echo 1 ?>text")
        #expect(result.html.html == "text")
        #expect(result.removed == ["processing instruction"])
    }

    @Test func removedNotesAreDeduplicatedInOrder() {
        let result = HTMLSanitizer.sanitize(#"<p class="a">1</p><script>x</script><p class="b">2</p><script>y</script>"#)
        #expect(result.html.html == "<p>1</p><p>2</p>")
        #expect(result.removed == ["attribute class on <p>", "element <script>"])
    }

    @Test func reportsContentLostBeyondLibxmlDepthLimit() {
        // libxml2 halts at 256 open elements; everything after is lost and must be reported.
        let deep = String(repeating: "<b>", count: 300) + "deep" + String(repeating: "</b>", count: 300) + "after"
        let result = HTMLSanitizer.sanitize(deep)
        #expect(!result.html.html.contains("after"))
        #expect(result.removed.contains { $0.hasPrefix("everything after the point where libxml2 stopped") })
        // Still balanced output.
        #expect(result.html.html.ranges(of: "<b>").count == result.html.html.ranges(of: "</b>").count)
    }

    // MARK: - Concurrency

    @Test func concurrentSanitizeGivesIdenticalResults() async {
        let fragments = [
            #"<p onclick="x()">Hello <a href="https://example.org">world</a></p><script>alert(1)</script>"#,
            #"<ul><li>one<li>two <a href=" JaVa&#09;script:alert(1)">bad</a></ul><!-- c -->"#,
            "Grüße &amp; <div>日本</div> 1 < 2",
        ]
        let expected = fragments.map { HTMLSanitizer.sanitize($0) }
        let mismatches = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for index in 0..<2_000 {
                let which = index % fragments.count
                let fragment = fragments[which]
                let want = expected[which]
                group.addTask {
                    let got = HTMLSanitizer.sanitize(fragment)
                    return got.html == want.html && got.removed == want.removed
                }
            }
            var mismatches = 0
            for await same in group where !same { mismatches += 1 }
            return mismatches
        }
        #expect(mismatches == 0)
    }

    // MARK: - XSS corpus

    static let xssCorpus: [String] = [
        "<script>alert('XSS')</script>",
        "<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>",
        "<sCrIpT>alert(1)</ScRiPt>",
        "<IMG SRC=\"javascript:alert('XSS');\">",
        "<IMG SRC=JaVaScRiPt:alert('XSS')>",
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)><script>alert(2)</script></svg>",
        "<body onload=alert('XSS')>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<a href=\"javascript:alert(1)\">click</a>",
        "<a href=\"&#x6A;avascript:alert(1)\">click</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">click</a>",
        "<a href=\"  javascript:alert(1)\">click</a>",
        "<a href=\"\u{1}javascript:alert(1)\">click</a>",
        "<p onmouseover=\"alert(1)\">hover</p>",
        "<div style=\"background-image: url(javascript:alert(1))\">x</div>",
        "\"><script>alert(1)</script>",
        "<scr<script>ipt>alert(1)</scr</script>ipt>",
        "<<script>alert(1);//<</script>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<embed src=\"javascript:alert(1)\">",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<details open ontoggle=alert(1)>",
        "<input autofocus onfocus=alert(1)>",
        "<form><button formaction=javascript:alert(1)>X</button></form>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
        "<template><script>alert(1)</script></template>",
        "<marquee onstart=alert(1)>m</marquee>",
        "<a href=\"data:text/html,<script>alert(1)</script>\">d</a>",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<!--<script>alert(1)</script>-->",
        "<p><a href=\"javascript&colon;alert(1)\">c</a></p>",
        "<xmp><script>alert(1)</script></xmp>",
        "<textarea><script>alert(1)</script></textarea>",
    ]

    @Test(arguments: xssCorpus)
    func xssPayloadIsNeutralised(_ payload: String) throws {
        let html = HTMLSanitizer.sanitize(payload).html.html
        let lower = html.lowercased()
        #expect(!lower.contains("<script"))
        #expect(!lower.contains("<iframe"))
        #expect(!lower.contains("javascript:"))
        // Every tag left is an allowed one, with at most an allowed href and no event handler.
        let tag = try Regex(#"<[^>]*>"#)
        let allowedTag = try Regex(#"^</?(p|br|strong|em|b|i|u|ul|ol|li|a)( href="(https?|mailto):[^"<>]*")?>$"#)
        for match in html.matches(of: tag) {
            let text = String(html[match.range])
            #expect(text.wholeMatch(of: allowedTag) != nil, "unexpected tag \(text)")
            #expect(text.firstMatch(of: try Regex(#"\son\w+\s*="#).ignoresCase()) == nil, "event handler in \(text)")
        }
    }
}
