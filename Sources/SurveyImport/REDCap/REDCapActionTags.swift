import Foundation
/// The action tags of a field's annotation: `@HIDDEN @DEFAULT='5' @CALCTEXT(if([a] = 1, 'x', 'y'))`.
struct REDCapActionTags {
    struct Tag: Equatable {
        let name: String
        /// `='…'`'s value, or the text inside `(…)`.
        let argument: String?
    }

    let tags: [Tag]

    init(_ annotation: String) {
        let characters = Array(annotation)
        var tags: [Tag] = []
        var index = 0
        while index < characters.count {
            guard characters[index] == "@", index + 1 < characters.count, characters[index + 1].isLetter,
                  index == 0 || characters[index - 1].isWhitespace else {
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-" || characters[end] == "_" { end += 1 }
            let name = String(characters[(index + 1)..<end]).uppercased()
            var argument: String?
            if end < characters.count, characters[end] == "=" {
                end += 1
                if end < characters.count, characters[end] == "'" || characters[end] == "\"" {
                    let quote = characters[end]
                    let close = characters[(end + 1)...].firstIndex(of: quote) ?? characters.count
                    argument = String(characters[(end + 1)..<close])
                    end = min(close + 1, characters.count)
                } else {
                    let start = end
                    while end < characters.count, !characters[end].isWhitespace { end += 1 }
                    argument = String(characters[start..<end])
                }
            } else if end < characters.count, characters[end] == "(" {
                var depth = 0
                let start = end + 1
                var quote: Character?
                while end < characters.count {
                    let character = characters[end]
                    if let open = quote {
                        if character == open { quote = nil }
                    } else if character == "'" || character == "\"" {
                        quote = character
                    } else if character == "(" {
                        depth += 1
                    } else if character == ")" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    end += 1
                }
                argument = String(characters[start..<min(end, characters.count)])
                end = min(end + 1, characters.count)
            }
            tags.append(Tag(name: name, argument: argument))
            index = end
        }
        self.tags = tags
    }

    func has(_ names: String...) -> Bool { tags.contains { names.contains($0.name) } }
    func argument(_ name: String) -> String? { tags.first { $0.name == name }?.argument }
}
