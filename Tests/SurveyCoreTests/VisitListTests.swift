import Foundation
import Testing
@testable import SurveyCore

/// The chunked visit list must behave exactly as an array of visits does.
@Suite("Visit list")
struct VisitListTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    static func visit(_ number: Int) -> StepVisit {
        StepVisit(stepIdentifier: "s\(number)", startDate: Date(timeIntervalSince1970: Double(number)), page: number % 3)
    }

    @Test("Random edits, appends, cuts and splices leave it equal to an array given the same operations", arguments: [1, 2, 3, 4, 5])
    func behavesAsAnArray(seed: UInt64) {
        var random = Generator(state: seed)
        var array: [StepVisit] = []
        var list = VisitList()
        var made = 0
        for _ in 0..<600 {
            made += 1
            let before = list
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                array.append(Self.visit(made))
                list.append(Self.visit(made))
            case 5..<7 where !array.isEmpty:
                let position = Int.random(in: 0..<array.count, using: &random)
                array[position].page += 1
                list[position].page += 1
            case 7 where !array.isEmpty:
                let from = Int.random(in: 0..<array.count, using: &random)
                array.removeSubrange(from...)
                list.removeSubrange(from...)
            case 8:
                let position = Int.random(in: 0...array.count, using: &random)
                let inserted = (0..<Int.random(in: 0..<40, using: &random)).map { Self.visit(made * 100 + $0) }
                array.insert(contentsOf: inserted, at: position)
                list.insert(contentsOf: inserted, at: position)
            default:
                let lower = Int.random(in: 0...array.count, using: &random)
                let upper = Int.random(in: lower...array.count, using: &random)
                array.replaceSubrange(lower..<upper, with: [Self.visit(made)])
                list.replaceSubrange(lower..<upper, with: [Self.visit(made)])
            }
            #expect(Array(list) == array)
            #expect(list.count == array.count)
            let naive = zip(before, list).prefix { $0 == $1 }.count
            #expect(list.firstDifference(from: before) == naive)
            #expect((list == before) == (Array(list) == Array(before)))
        }
    }

    @Test("Editing one visit of a long run shares every other chunk with the original")
    func editsShareChunks() {
        let original = VisitList((0..<1000).map(Self.visit))
        var edited = original
        edited[700].page = 9
        edited.append(Self.visit(1000))
        #expect(edited.firstDifference(from: original) == 700)
        #expect(original[700].page == Self.visit(700).page)
        #expect(edited.count == 1001)
    }

    @Test("It is coded as a plain array of visits")
    func codedAsAnArray() throws {
        let visits = (0..<70).map(Self.visit)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(VisitList(visits)) == encoder.encode(visits))
        let decoded = try JSONDecoder().decode(VisitList.self, from: encoder.encode(visits))
        #expect(Array(decoded) == visits)
    }
}
