import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyTestSupport
import Testing

/// An XLSForm in its CSV form: groups, a page, a repeat, two languages, constraints, a
/// calculation and a choice filter.
let householdForm = """
survey,type,name,label::English (en),label::Español (es),hint::English (en),required,constraint,constraint_message::English (en),relevant,calculation,appearance,choice_filter,default
,text,head,Name of the head of household,Nombre del jefe de hogar,,yes,,,,,,,
,integer,age,Age,Edad,In years,yes,. >= 0 and . <= 120,Between 0 and 120,,,,,
,select_one region,region,Region,Región,,,,,,,minimal,,
,select_one district,district,District,Distrito,,,,,,,,region = ${region},
,begin group,water,Water,Agua,,,,,,,field-list,,
,select_one yn,has_tap,Tap water?,¿Agua de grifo?,,,,,,,,,
,text,tap_notes,About the tap,Sobre el grifo,,,"regex(., '^[A-Za-z ]*$')",Letters only,${has_tap} = 'yes',,multiline,,
,end group,,,,,,,,,,,,
,begin group,adults,Adults,Adultos,,,,,${age} >= 18,,,,
,select_multiple goods or_other,goods,Goods owned,Bienes,,,,,,,,,
,decimal,income,Monthly income,Ingreso mensual,,,. > 0,,,,,,
,end group,,,,,,,,,,,,
,begin repeat,member,Member,Miembro,,,,,,,,,
,text,member_name,Name,Nombre,,,,,,,,,
,end repeat,,,,,,,,,,,,
,calculate,double_age,,,,,,,,${age} * 2,,,
,note,bye,"Thank you, ${head}","Gracias, ${head}",,,,,,,,,
choices,list_name,name,label::English (en),label::Español (es),region
,region,north,North,Norte,
,region,south,South,Sur,
,district,n1,North One,Norte Uno,north
,district,s1,South One,Sur Uno,south
,yn,yes,Yes,Sí,
,yn,no,No,No,
,goods,tv,TV,Televisor,
,goods,radio,Radio,Radio,
settings,form_title,form_id,default_language
,Household survey,household,English (en)
"""

func importedForm(_ text: String) throws -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
    XLSFormImport.surveys(csvRows: try CSVTable.rows(text), name: "form")
}

@Suite("XLSForm in")
struct XLSFormImportTests {
    @Test("Questions are steps, a field-list group is a page, a repeat a repeating form, in every language")
    func structure() throws {
        let (surveys, diagnostics) = try importedForm(householdForm)
        #expect(diagnostics.filter(\.isError).isEmpty, "\(diagnostics)")
        let task = try loaded(try #require(surveys.first))
        #expect(task.identifier == "household")
        #expect(task.languages == ["en", "es"])
        #expect(task.steps.map(\.identifier) == ["head", "age", "region", "district", "water", "goods", "income", "member", "double_age", "bye"])
        #expect(task.step("head")?.questions.first?.isOptional == false)
        guard case .numeric(let age)? = task.step("age")?.questions.first?.answerFormat else { Issue.record("age"); return }
        #expect(age.minimum == 0 && age.maximum == 120)
        guard case .valuePicker? = task.step("region")?.questions.first?.answerFormat else { Issue.record("minimal is a drop-down"); return }
        guard case .form(let water)? = task.step("water")?.kind else { Issue.record("water is not a page"); return }
        #expect(water.formQuestions.map(\.identifier) == ["has_tap", "tap_notes"])
        #expect(water.formQuestions.last?.visibleIf != nil)
        guard case .text(let notes)? = water.formQuestions.last?.answerFormat else { Issue.record("tap notes"); return }
        #expect(notes.validationRegularExpression == "^[A-Za-z ]*$")
        #expect(notes.multipleLines == true)
        // A plain group's label titles its first step; its relevant joins its questions'.
        #expect(task.step("goods")?.title?.resolved(for: "es") == "Adultos")
        #expect(task.skipRules.contains { $0.stepIdentifier == "income" })
        guard case .numeric(let income)? = task.step("income")?.questions.first?.answerFormat else { Issue.record("income"); return }
        #expect(income.minimum == nil, "a decimal's > 0 is no inclusive bound and is warned of")
        #expect(diagnostics.contains { !$0.isError && $0.message.contains("row 12 (income), column constraint") })
        guard case .textChoice(let goods)? = task.step("goods")?.questions.first?.answerFormat else { Issue.record("goods"); return }
        #expect(goods.choices.last?.other != nil)
        #expect(task.step("member")?.repeating != nil)
        #expect(task.step("double_age")?.questions.first?.behaviour.hidden == true)
        #expect(task.step("bye")?.text?.resolved(for: "es") == "Gracias, ${head|}")
    }

    @Test("A participant's answers decide what is asked and which choices show")
    func walks() throws {
        let task = try loaded(try #require(try importedForm(householdForm).surveys.first))
        var walker = Walker(task)
        #expect(walker.next(["head": "Ana"]).isEmpty)
        #expect(walker.next(["age": "150"]).count == 1, "the constraint's bound is checked")
        #expect(walker.next(["age": "12"]).isEmpty)
        #expect(walker.next(["region": "south"]).isEmpty)
        // Only the south's districts show, and a north one is refused.
        let hidden = walker.navigator.hiddenChoices(of: try #require(task.step("district")?.questions.first?.answerFormat),
                                                    step: try #require(task.step("district")), visit: walker.run.cursor, in: walker.run)
        #expect(hidden == [0])
        #expect(!walker.next(["district": "n1"]).isEmpty)
        #expect(walker.next(["district": "s1"]).isEmpty)
        #expect(walker.next(["has_tap": "no"]).isEmpty)
        // Under 18: the adults' group is passed over.
        #expect(walker.currentIdentifier == "member")
        #expect(!walker.pathIdentifiers.contains("goods"))
    }

    @Test("What a page without script cannot ask is refused naming the sheet, row and column")
    func refusals() throws {
        let form = """
        survey,type,name,label
        ,geopoint,where,Where are you?
        ,text,fruit,Fruit
        ,calculate,price,
        ,begin repeat,outer,Outer
        ,begin repeat,inner,Inner
        ,text,x,X
        ,end repeat,,
        ,end repeat,,
        """.replacingOccurrences(of: ",calculate,price,", with: ",calculate,price,,")
        let rows = try CSVTable.rows(form.replacingOccurrences(of: "survey,type,name,label", with: "survey,type,name,label,calculation")
            .replacingOccurrences(of: ",calculate,price,,", with: ",calculate,price,,\"pulldata('fruits', 'price', 'name', ${fruit})\""))
        let (surveys, diagnostics) = XLSFormImport.surveys(csvRows: rows, name: "f")
        #expect(surveys.isEmpty)
        let errors = diagnostics.filter(\.isError).map(\.message)
        #expect(errors.contains { $0.hasPrefix("Sheet survey, row 2 (where), column type: A geopoint question cannot be asked") })
        #expect(errors.contains { $0.hasPrefix("Sheet survey, row 4 (price), column calculation: pulldata()") })
        #expect(errors.contains { $0.hasPrefix("Sheet survey, row 6 (inner), column type: A repeat inside") })
    }

    static let corpus = Repository.root.appendingPathComponent("Tests/Fixtures/xlsform-corpus")

    /// The corpus forms that do not import as they are, with words their first error holds.
    static let refused: [String: String] = [
        "02-pyxform-widgets-media-geo.xlsx": "A geopoint question",
        "03-pyxform-case-insensitive-external-osm.xlsx": "A select_one_external question",
        "04-pyxform-nested-repeats-groups-relevant.xlsx": "A repeat inside",
        "06-pyxform-indexed-repeat-nested.xlsx": "A repeat inside",
        "14-pyxform-audio-quality.xlsx": "An audio question",
        "19-xlsformorg-gps-store-geopoint.xlsx": "A geopoint question",
        "20-xlsformorg-pulldata-fruits.xlsx": "pulldata()",
        "21-xlsformorg-image-max-pixels.xlsx": "An image question",
    ]

    static func corpusFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { $0.hasSuffix(".xlsx") }.sorted()
    }

    @Test("Every workbook of the corpus imports, or is refused as the table says", arguments: corpusFiles())
    func acceptance(file: String) throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent(file))
        let (surveys, diagnostics) = XLSFormImport.surveys(workbook: data, name: String(file.dropLast(5)))
        let loads = surveys.first.map { SurveyLoader.diagnose($0.survey).task != nil } ?? false
        if let words = Self.refused[file] {
            #expect(!loads)
            #expect(diagnostics.first(where: \.isError)?.message.contains(words) == true, "\(file): \(diagnostics.filter(\.isError).first?.message ?? "no error")")
        } else {
            #expect(loads, "\(file): \(diagnostics.filter(\.isError).map(\.message)) \(surveys.first.map { SurveyLoader.diagnose($0.survey).diagnostics.filter(\.isError) } ?? [])")
        }
    }
}
