import Foundation

/// How a form is split into pages: a new page starts where an item depends on an item
/// above it in the same form, so that the answer it depends on is saved first.
public enum FormLayout {
    public static func pages(of items: [FormItem], in stepIdentifier: String) -> [Range<Int>] {
        var pages: [Range<Int>] = []
        var start = 0
        var onPage = Set<String>()
        for (index, item) in items.enumerated() {
            if case .section = item { continue }
            // An expression may read any answer, so an item that uses one starts a page unless it is first.
            let usesExpression: Bool = {
                if case .question(let question) = item, question.behaviour.calculatedExpression != nil { return true }
                return item.visibleIf?.usesExpression ?? false
            }()
            let dependsOnPage = (usesExpression && !onPage.isEmpty) || (item.visibleIf?.selectors.contains { selector in
                selector.stepIdentifier == stepIdentifier && selector.itemIdentifier.map(onPage.contains) == true
            } ?? false)
            if dependsOnPage {
                // Section headers right above the item go with it.
                var split = index
                while split > start, case .section = items[split - 1] { split -= 1 }
                pages.append(start..<split)
                start = split
                onPage = []
            }
            guard case .question(let question) = item else { continue }
            onPage.insert(question.identifier)
        }
        pages.append(start..<items.count)
        return pages
    }
}
