import FHIRPath
import Foundation
import PropertyBased
import Testing

private typealias Kit = FHIRPathTestSupport

/// Rules that hold for every input, checked on random ones.
@Suite("FHIRPath properties")
struct FHIRPathPropertyTests {
    /// An integer as a FHIRPath term; negative ones in parentheses.
    static func term(_ n: Int) -> String { n < 0 ? "(\(n))" : "\(n)" }

    /// `units / 100` written as a decimal literal term, e.g. -1234 → "(-12.34)".
    static func decimalTerm(_ units: Int) -> String {
        let digits = String(units.magnitude)
        let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        let text = "\(padded.dropLast(2)).\(padded.suffix(2))"
        return units < 0 ? "(-\(text))" : text
    }

    /// A union written from items, `{}` when there are none.
    static func union(_ items: [Int]) -> String {
        items.isEmpty ? "{}" : "(" + items.map(term).joined(separator: " | ") + ")"
    }

    @Test func integerArithmeticMatchesSwift() async {
        await propertyCheck(count: 300, input: Gen.int(in: -1000...1000), Gen.int(in: -1000...1000)) { a, b in
            let (x, y) = (Self.term(a), Self.term(b))
            #expect(Kit.evaluate("\(x) + \(y)") == [.integer(a + b)])
            #expect(Kit.evaluate("\(x) - \(y)") == [.integer(a - b)])
            #expect(Kit.evaluate("\(x) * \(y)") == [.integer(a * b)])
            // div truncates towards zero and mod takes the sign of the dividend; by zero both are empty.
            #expect(Kit.evaluate("\(x) div \(y)") == (b == 0 ? [] : [.integer(a / b)]), "\(a) div \(b)")
            #expect(Kit.evaluate("\(x) mod \(y)") == (b == 0 ? [] : [.integer(a % b)]), "\(a) mod \(b)")
            if b != 0 {
                #expect(Kit.evaluate("(\(x) div \(y)) * \(y) + (\(x) mod \(y)) = \(x)") == [.boolean(true)])
            }
        }
    }

    @Test func exactlyOneOrderHolds() async {
        await propertyCheck(count: 200, input: Gen.int(in: -50...50), Gen.int(in: -5000...5000)) { a, units in
            let (x, y) = (Self.term(a), Self.decimalTerm(units))
            let answers = ["<", "=", ">"].compactMap { Kit.evaluate("\(x) \($0) \(y)")?.singleBoolean }
            #expect(answers.filter { $0 }.count == 1, "\(x) against \(y)")
            #expect(Kit.evaluate("\(x) <= \(y)") == [.boolean(Decimal(a) * 100 <= Decimal(units))])
        }
    }

    static let operators = ["+", "-", "*", "/", "div", "mod", "<", ">", "<=", ">=", "=", "!="]
    static let operands = ["1", "(-7)", "2.5", "0", "'text'", "@2020-01-02", "5 'mg'", "true"]

    @Test func anOperandThatIsEmptyMakesTheResultEmpty() async {
        let op = Gen<String?>.element(of: Self.operators).map { $0! }
        let operand = Gen<String?>.element(of: Self.operands).map { $0! }
        await propertyCheck(count: 300, input: op, operand, Gen.bool) { op, operand, emptyOnLeft in
            let source = emptyOnLeft ? "{} \(op) \(operand)" : "\(operand) \(op) {}"
            #expect(Kit.evaluate(source) == [], "\(source)")
        }
    }

    @Test func additionCommutes() async {
        await propertyCheck(count: 300, input: Gen.int(in: -100_000...100_000), Gen.int(in: -100_000...100_000), Gen.bool, Gen.bool) {
            a, b, aDecimal, bDecimal in
            let x = aDecimal ? Self.decimalTerm(a) : Self.term(a)
            let y = bDecimal ? Self.decimalTerm(b) : Self.term(b)
            #expect(Kit.evaluate("\(x) + \(y) = \(y) + \(x)") == [.boolean(true)], "\(x) + \(y)")
            #expect(Kit.evaluate("\(x) + \(y)") == Kit.evaluate("\(y) + \(x)"))
        }
    }

    @Test func decimalArithmeticIsExact() async {
        await propertyCheck(count: 300, input: Gen.int(in: -100_000...100_000), Gen.int(in: -100_000...100_000)) { a, b in
            let expected = (Decimal(a) + Decimal(b)) / 100
            #expect(Kit.evaluate("\(Self.decimalTerm(a)) + \(Self.decimalTerm(b))") == [.decimal(expected)])
            #expect(Kit.evaluate("\(Self.decimalTerm(a)) - \(Self.decimalTerm(b)) + \(Self.decimalTerm(b)) = \(Self.decimalTerm(a))")
                    == [.boolean(true)])
        }
    }

    @Test func aUnionCountsNoMoreThanItsParts() async {
        let items = Gen.int(in: -3...6).array(of: 0...6)
        await propertyCheck(count: 300, input: items, items) { left, right in
            let (l, r) = (Self.union(left), Self.union(right))
            guard let union = Kit.evaluate("(\(l) | \(r)).count()")?.singleValue,
                  let leftCount = Kit.evaluate("\(l).count()")?.singleValue,
                  let rightCount = Kit.evaluate("\(r).count()")?.singleValue,
                  case .integer(let u) = union, case .integer(let a) = leftCount, case .integer(let b) = rightCount else {
                Issue.record("counts of \(l) and \(r)")
                return
            }
            #expect(u <= a + b)
            #expect(u == Set(left + right).count)
            #expect(Kit.evaluate("(\(l) | \(r)).distinct().count() = (\(l) | \(r)).count()") == [.boolean(true)])
        }
    }

    @Test func roundingIsHalfAwayFromZero() async {
        await propertyCheck(count: 300, input: Gen.int(in: -100_000...100_000)) { units in
            // units / 100 rounded to one digit: the hundredths digit 5 rounds away from zero.
            let tenths = (units.magnitude + 5) / 10
            let expected = Decimal(units < 0 ? -Int(tenths) : Int(tenths)) / 10
            #expect(Kit.evaluate("\(Self.decimalTerm(units)).round(1)") == [.decimal(expected)], "\(units)")
        }
    }

    @Test func sumMatchesRepeatedAddition() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1000...1000).array(of: 1...8)) { numbers in
            let collection = "(" + numbers.map(Self.term).joined(separator: " | ") + ")"
            let distinctSum = numbers.reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }.reduce(0, +)
            #expect(Kit.evaluate("\(collection).sum()") == [.integer(distinctSum)])
            #expect(Kit.evaluate("\(collection).where($this > 0).count() + \(collection).where($this <= 0).count() = \(collection).count()")
                    == [.boolean(true)])
        }
    }
}
