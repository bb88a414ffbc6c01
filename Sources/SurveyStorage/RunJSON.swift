import Foundation
import JSON
import SurveyCore

/// The JSON the stores keep for a run's header and for each of its visits, written straight
/// into bytes: `JSONEncoder` took about 7 % of the server's CPU in the answer cycle.
///
/// The shapes are those of the `Codable` conformances in SurveyCore, with dates as seconds
/// since 1970, so `JSONDecoder` reads them back (the stores read with it). `RunJSONTests`
/// holds the two to each other over every kind of answer and every optional field, and fails
/// when a stored type gains a property this file does not write.
enum RunJSON {
    /// A number JSON cannot hold (infinite or not a number), as `JSONEncoder` refuses it too.
    struct NotANumber: Error {}

    /// A run's FHIR context as its column holds it; nil when it has none.
    static func text(_ context: FHIRRunContext?) -> String? {
        guard let context, !context.isEmpty else { return nil }
        return JSONWriter.string(context.json, pretty: false)
    }

    /// The FHIR context a column holds.
    static func fhirContext(_ text: String?) -> FHIRRunContext? {
        guard let text, let json = try? JSONParser.parse(text) else { return nil }
        return FHIRRunContext(json: json)
    }

    /// The run without its visits, which have rows of their own.
    static func header(_ run: TaskRun) throws -> [UInt8] {
        var writer = Writer()
        writer.open()
        writer.member("taskIdentifier", run.taskIdentifier)
        writer.member("taskRunUUID", run.taskRunUUID.uuidString)
        try writer.member("startDate", date: run.startDate)
        try writer.member("endDate", date: run.endDate)
        writer.member("finishReason", run.finishReason?.rawValue)
        writer.key("visits")
        writer.literal("[]")
        writer.key("cursor")
        writer.integer(run.cursor)
        if let consent = run.consent {
            // Rare (a consent's copy, countersignature or withdrawal) and small: the encoder's shape as it is.
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            writer.key("consent")
            writer.bytes.append(contentsOf: try encoder.encode(consent))
        }
        // A panel's parameters, the orders drawn at the start, and the arms: small, and only
        // in surveys that have them.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let parameters = run.parameters {
            writer.key("parameters")
            writer.bytes.append(contentsOf: try encoder.encode(parameters))
        }
        if let orders = run.choiceOrders {
            writer.key("choiceOrders")
            writer.bytes.append(contentsOf: try encoder.encode(orders))
        }
        if let orders = run.blockOrders {
            writer.key("blockOrders")
            writer.bytes.append(contentsOf: try encoder.encode(orders))
        }
        if let arms = run.arms {
            writer.key("arms")
            writer.bytes.append(contentsOf: try encoder.encode(arms))
        }
        writer.close()
        return writer.bytes
    }

    /// Results as a JSON array, each as a visit row holds it.
    static func results(_ results: [QuestionResult]) throws -> [UInt8] {
        var writer = Writer()
        writer.bytes.append(UInt8(ascii: "["))
        for (position, result) in results.enumerated() {
            if position > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            try writer.result(result)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        return writer.bytes
    }

    static func visit(_ visit: StepVisit) throws -> [UInt8] {
        var writer = Writer()
        writer.open()
        writer.member("stepIdentifier", visit.stepIdentifier)
        try writer.member("startDate", date: visit.startDate)
        try writer.member("endDate", date: visit.endDate)
        writer.key("page")
        writer.integer(visit.page)
        writer.key("results")
        writer.bytes.append(UInt8(ascii: "["))
        for (position, result) in visit.results.enumerated() {
            if position > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            try writer.result(result)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        writer.key("isAnswered")
        writer.literal(visit.isAnswered ? "true" : "false")
        if let instances = visit.instances {
            // A repeating form's instances: an array of result arrays.
            writer.key("instances")
            writer.bytes.append(UInt8(ascii: "["))
            for (position, instance) in instances.enumerated() {
                if position > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                writer.bytes.append(contentsOf: try results(instance))
            }
            writer.bytes.append(UInt8(ascii: "]"))
        }
        if let instance = visit.instance {
            writer.key("instance")
            writer.integer(instance)
        }
        if let removing = visit.removing {
            writer.key("removing")
            writer.integer(removing)
        }
        try writer.member("instanceStart", date: visit.instanceStart)
        writer.close()
        return writer.bytes
    }

    /// Appends to one byte array; `key` puts the comma before every member but an object's first.
    private struct Writer {
        var bytes: [UInt8] = []
        private var first = true

        init() {
            bytes.reserveCapacity(256)
        }

        mutating func open() {
            bytes.append(UInt8(ascii: "{"))
            first = true
        }

        mutating func close() {
            bytes.append(UInt8(ascii: "}"))
            first = false
        }

        mutating func key(_ name: StaticString) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: "\":".utf8)
        }

        /// A string member; none when the value is nil, as synthesized coding leaves it out.
        mutating func member(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            string(value)
        }

        mutating func member(_ name: StaticString, date: Date?) throws {
            guard let date else { return }
            key(name)
            try self.date(date)
        }

        mutating func literal(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ text: String) {
            JSONWriter.appendString(text, to: &bytes)
        }

        mutating func integer(_ value: Int) {
            bytes.append(contentsOf: String(value).utf8)
        }

        mutating func number(_ value: Double) throws {
            guard value.isFinite else { throw NotANumber() }
            bytes.append(contentsOf: JSONWriter.number(value).utf8)
        }

        mutating func date(_ date: Date) throws {
            try number(date.timeIntervalSince1970)
        }

        mutating func result(_ result: QuestionResult) throws {
            open()
            member("identifier", result.identifier)
            member("type", result.type.rawValue)
            try member("startDate", date: result.startDate)
            try member("endDate", date: result.endDate)
            if let answer = result.answer {
                key("answer")
                try self.answer(answer)
            }
            member("unit", result.unit)
            member("displayUnit", result.displayUnit)
            member("timeZone", result.timeZone)
            member("separator", result.separator)
            close()
        }

        /// An enum case with a value, as Swift's synthesized coding writes it: `{"case":{"_0":value}}`.
        private mutating func enumCase(_ name: StaticString, _ value: (inout Writer) throws -> Void) rethrows {
            open()
            key(name)
            open()
            key("_0")
            try value(&self)
            close()
            close()
        }

        mutating func answer(_ answer: Answer) throws {
            switch answer {
            case .boolean(let flag): enumCase("boolean") { $0.literal(flag ? "true" : "false") }
            case .choices(let values): try enumCase("choices") { try $0.choices(values) }
            case .components(let values): try enumCase("components") { try $0.choices(values) }
            case .scale(let value): try enumCase("scale") { try $0.number(value) }
            case .numeric(let value): try enumCase("numeric") { try $0.number(value) }
            case .timeOfDay(let time): enumCase("timeOfDay") { $0.string(time.description) }
            case .date(.day(let day)): enumCase("date") { $0.enumCase("day") { $0.string(day.description) } }
            case .date(.instant(let instant)): try enumCase("date") { try $0.enumCase("instant") { try $0.date(instant) } }
            case .timeInterval(let seconds): try enumCase("timeInterval") { try $0.number(seconds) }
            case .text(let text): enumCase("text") { $0.string(text) }
            case .location(let location): try enumCase("location") { try $0.location(location) }
            case .ses(let rung): enumCase("ses") { $0.integer(rung) }
            case .dontKnow:
                open()
                key("dontKnow")
                literal("{}")
                close()
            }
        }

        private mutating func choices(_ values: [ChoiceValue]) throws {
            bytes.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                switch value {
                case .string(let text): string(text)
                case .number(let number): try self.number(number)
                }
            }
            bytes.append(UInt8(ascii: "]"))
        }

        private mutating func location(_ location: LocationAnswer) throws {
            open()
            member("userInput", location.userInput)
            if let latitude = location.latitude {
                key("latitude")
                try number(latitude)
            }
            if let longitude = location.longitude {
                key("longitude")
                try number(longitude)
            }
            close()
        }
    }
}
