import Foundation
import JSON
@testable import SurveyCore
import Testing

/// Examples/every-format.json as a Questionnaire: every format's item, and a note for each loss.
struct QuestionnaireExportEveryFormatTests {
    static func export() throws -> (questionnaire: JSONValue, notes: [Diagnostic]) {
        let exported = QuestionnaireExport.questionnaire(fromSurvey: try FHIRExportFixtures.everyFormat(), surveyVersion: "0123456789abcdef")
        expectFHIRClean(exported.questionnaire)
        return exported
    }

    @Test func root() throws {
        let questionnaire = try Self.export().questionnaire
        #expect(questionnaire[fx: "resourceType"] == .string("Questionnaire"))
        #expect(questionnaire[fx: "id"] == .string("every-format"))
        #expect(questionnaire[fx: "url"] == .string("urn:survey-presenter:questionnaire:every-format"))
        #expect(questionnaire[fx: "version"] == .string("0123456789abcdef"))
        #expect(questionnaire[fx: "name"] == .string("EveryFormat"))
        #expect(questionnaire[fx: "title"] == .string("Health and daily life questionnaire"))
        #expect(questionnaire[fx: "status"] == .string("active"))
    }

    @Test func stepsBecomeItems() throws {
        let questionnaire = try Self.export().questionnaire
        #expect(fhirChildLinkIds(questionnaire) == [
            "welcome", "contact-ok", "handedness", "transport", "country", "blood-group", "mood-face", "stress", "pain", "sitting",
            "sleep-quality", "about-you", "last-checkup", "last-painkiller", "participant-code", "hometown", "ladder", "comments", "thanks",
        ])
        let form = fhirItem("about-you", in: questionnaire)
        #expect(fhirChildLinkIds(form) == ["about-you.text", "about-you.section1", "about-you.section2", "about-you.section3", "about-you.footerText"])
        #expect(fhirChildLinkIds(fhirItem("about-you.section1", in: questionnaire)) == [
            "about-you.section1.detailText", "about-you.height", "about-you.weight", "about-you.age",
        ])
        #expect(fhirItem("about-you.section2", in: questionnaire)?[fx: "text"] == .string("Your day"))
    }

    @Test(arguments: [
        ("welcome", "display"), ("contact-ok", "boolean"), ("handedness", "choice"), ("transport", "open-choice"),
        ("country", "choice"), ("blood-group", "string"), ("mood-face", "choice"), ("stress", "integer"), ("pain", "decimal"),
        ("sitting", "decimal"), ("sleep-quality", "choice"), ("about-you", "group"), ("about-you.height", "quantity"),
        ("about-you.weight", "quantity"), ("about-you.age", "integer"), ("about-you.daily-steps", "quantity"),
        ("about-you.water", "quantity"), ("about-you.wake-time", "time"), ("about-you.exercise", "quantity"),
        ("about-you.email", "string"), ("last-checkup", "date"), ("last-painkiller", "dateTime"), ("participant-code", "string"),
        ("hometown", "string"), ("ladder", "integer"), ("comments", "text"), ("thanks", "display"),
    ])
    func itemType(_ linkId: String, _ type: String) throws {
        #expect(fhirItem(linkId, in: try Self.export().questionnaire)?[fx: "type"] == .string(type))
    }

    @Test func questionFields() throws {
        let questionnaire = try Self.export().questionnaire
        let contact = fhirItem("contact-ok", in: questionnaire)
        #expect(contact?[fx: "text"] == .string("May we contact you about future studies?"))
        #expect(contact?[fx: "required"] == .bool(true))
        #expect(contact?[fx: "item"] == nil)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/entryFormat", on: contact)?[fx: "valueString"]
            == .string("If you say yes, we will ask for your email address later on."))
        #expect(fhirItem("blood-group", in: questionnaire)?[fx: "required"] == nil)

        let transport = fhirItem("transport", in: questionnaire)
        #expect(transport?[fx: "repeats"] == .bool(true))
        let options = transport?[fx: "answerOption"]?.fxArray ?? []
        #expect(options.compactMap { $0[fx: "valueCoding"]?[fx: "code"]?.fxString } == ["walk", "bike", "public", "car", "none"])
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive", on: options.last)?[fx: "valueBoolean"] == .bool(true))

        let country = fhirItem("country", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", on: country)?[fx: "valueCodeableConcept"]?[fx: "coding"]?
            .fxArray?.first?[fx: "code"] == .string("drop-down"))

        let sleep = fhirItem("sleep-quality", in: questionnaire)?[fx: "answerOption"]?.fxArray ?? []
        #expect(sleep.map { $0[fx: "valueInteger"] } == [1, 2, 3, 4, 5].map { JSONValue.number($0) })
        #expect(sleep.map { $0[fx: "initialSelected"] } == [nil, nil, .bool(true), nil, nil])

        let code = fhirItem("participant-code", in: questionnaire)
        #expect(code?[fx: "maxLength"] == .number(7))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/regex", on: code)?[fx: "valueString"] == .string("^[A-Z]{2}-[0-9]{4}$"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/entryFormat", on: code)?[fx: "valueString"]?.fxString?.hasPrefix("Enter the code") == true)

        let email = fhirItem("about-you.email", in: questionnaire)
        #expect(email?[fx: "enableWhen"] == FHIRExportFixtures.json(#"[{"question": "contact-ok", "operator": "=", "answerBoolean": true}]"#))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/regex", on: email) != nil)

        #expect(fhirItem("about-you.wake-time", in: questionnaire)?[fx: "initial"] == FHIRExportFixtures.json(#"[{"valueTime": "07:00:00"}]"#))
        #expect(fhirItem("comments", in: questionnaire)?[fx: "maxLength"] == .number(1000))
    }

    @Test func boundsUnitsAndSliders() throws {
        let questionnaire = try Self.export().questionnaire
        let stress = fhirItem("stress", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: stress)?[fx: "valueInteger"] == .number(0))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/maxValue", on: stress)?[fx: "valueInteger"] == .number(10))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue", on: stress)?[fx: "valueInteger"] == .number(1))
        #expect(stress?[fx: "item"] == nil)

        let sitting = fhirItem("sitting", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", on: sitting)?[fx: "valueInteger"] == .number(2))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue", on: sitting) == nil)

        let water = fhirItem("about-you.water", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", on: water)?[fx: "valueCoding"] == FHIRExportFixtures.json("""
        {"system": "http://unitsofmeasure.org", "code": "L", "display": "litres"}
        """))
        #expect(fhirExtension("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-maxQuantity", on: water)?[fx: "valueQuantity"]?[fx: "value"] == .number(10))
        let weight = fhirItem("about-you.weight", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", on: weight)?[fx: "valueCoding"]?[fx: "code"] == .string("kg"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", on: weight)?[fx: "valueInteger"] == .number(1))
        let age = fhirItem("about-you.age", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: age)?[fx: "valueInteger"] == .number(18))
        let ladder = fhirItem("ladder", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/maxValue", on: ladder)?[fx: "valueInteger"] == .number(10))

        let checkup = fhirItem("last-checkup", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: checkup)?[fx: "valueDate"] == .string("1950-01-01"))
        let relative = fhirExtension("http://hl7.org/fhir/StructureDefinition/maxValue", on: checkup)?[fx: "_valueDate"]?[fx: "extension"]?.fxArray?.first
        #expect(relative?[fx: "valueExpression"]?[fx: "expression"] == .string("today()"))
        let exercise = fhirItem("about-you.exercise", in: questionnaire)
        #expect(exercise?[fx: "initial"]?.fxArray?.first?[fx: "valueQuantity"]?[fx: "code"] == .string("s"))
    }

    @Test func notesNameEveryLoss() throws {
        let notes = try Self.export().notes
        #expect(notes.allSatisfy { $0.severity == .warning })
        #expect(notes.map(\.path.description) == [
            "$.steps[0].footnote", "$.steps[0].learnMore", "$.steps[1].answerFormat.yes", "$.steps[1].answerFormat.no",
            "$.steps[3].answerFormat.choices[2].detailText", "$.steps[5].answerFormat", "$.steps[6].answerFormat.choices",
            "$.steps[7].answerFormat.minimumValueDescription", "$.steps[7].answerFormat.maximumValueDescription",
            "$.steps[7].answerFormat.showDontKnowButton",
            "$.steps[8].answerFormat.minimumValueDescription", "$.steps[8].answerFormat.maximumValueDescription",
            "$.steps[9].answerFormat.numberStyle",
            "$.steps[9].answerFormat.minimumValueDescription", "$.steps[9].answerFormat.maximumValueDescription",
            "$.steps[10].answerFormat.choices", "$.steps[10].answerFormat.showDontKnowButton", "$.steps[11].items[5].answerFormat.unit",
            "$.steps[11].items[6].answerFormat.showDontKnowButton", "$.steps[11].items[7].answerFormat.minuteInterval",
            "$.steps[11].items[8].answerFormat", "$.steps[11].items[8].answerFormat.step", "$.steps[11].items[10].answerFormat",
            "$.steps[13].answerFormat.minuteInterval", "$.steps[13].answerFormat.showDontKnowButton",
            "$.steps[14].text", "$.steps[14].placeholder", "$.steps[15].answerFormat",
            "$.steps[16].answerFormat", "$.steps[16].answerFormat.topRungText", "$.steps[16].answerFormat.bottomRungText",
            "$.steps[18]", "$.timeZone",
        ])
        func message(_ path: String) -> String { notes.first { $0.path.description == path }?.message ?? "" }
        #expect(message("$.steps[18]").contains("Review steps have no FHIR equivalent"))
        #expect(message("$.steps[15].answerFormat").contains("coordinates are lost"))
        #expect(message("$.steps[6].answerFormat.choices").contains("no images"))
        #expect(message("$.steps[11].items[8].answerFormat").contains("seconds"))
        #expect(message("$.steps[11].items[10].answerFormat").contains("email"))
        #expect(message("$.steps[16].answerFormat").contains("1 (bottom) to 10 (top)"))
        #expect(message("$.steps[5].answerFormat").contains("multiple-value picker"))
        #expect(message("$.steps[10].answerFormat.choices").contains("no display"))
        #expect(message("$.steps[14].placeholder").contains("one hint"))
    }
}
