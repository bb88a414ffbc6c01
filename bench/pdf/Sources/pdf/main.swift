import Foundation
import JSON
import SurveyCore
import SurveyPDF
import SurveyRendering

// Makes the signed copy of Examples/study-consent.json, certified with a drawn signature, in
// English and in Arabic: the example as it is (two pages), and with its sections three times
// over (three pages or more), each made `count` times after a warm-up. Prints one line per case with the pages,
// the bytes, and the median and 99th percentile in milliseconds, then the same as JSON.
//
//   swift run -c release --package-path bench/pdf pdf [survey.json] [count]

let arguments = CommandLine.arguments
let path = arguments.count > 1 ? arguments[1] : "Examples/study-consent.json"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
let task = try SurveyLoader.load(contentsOf: URL(fileURLWithPath: path)).task

func signedRun(_ task: SurveyTask) -> TaskRun {
    var script = JSONObject()
    script["about"] = .object(JSONObject())
    script["sharing"] = .object(["sharing": .string("true")])
    script["review"] = .object([
        "consented": .string("true"), "givenName": .string("Ana"), "familyName": .string("García Núñez"),
        "signatureDrawing": .string("M20 150 L60 60 L100 150 L140 60 L180 150 M220 100 L400 100 L560 40"),
        "certified": .string("true"),
    ])
    guard case .arrived(let run) = Navigator(task: task).walk(script, from: Date(timeIntervalSince1970: 1_795_000_000)) else {
        fatalError("the scripted consent did not complete")
    }
    return run
}

func pages(_ bytes: [UInt8]) -> Int {
    // Every page object, not the page tree (`/Type /Pages`).
    let text = String(decoding: bytes, as: UTF8.self)
    return text.components(separatedBy: "/Type /Page").count - text.components(separatedBy: "/Type /Pages").count
}

var lines: [JSONValue] = []
let longer: SurveyTask = {
    var tripled = task
    let sections = tripled.consentDocument?.sections ?? []
    tripled.consentDocument?.sections = sections + sections + sections
    return tripled
}()
for (name, survey) in [("example", task), ("tripled", longer)] {
    let copies = ConsentCopy(task: survey, timeZone: TimeZone(identifier: "Europe/London"))
    let run = signedRun(survey)
    for language in ["en", "ar"] {
        guard let spec = copies.spec(run: run, language: language) else { fatalError("no copy for \(language)") }
        var bytes: [UInt8] = []
        for _ in 0..<5 { bytes = try PDFMaker.make(spec) }
        var times: [Double] = []
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            bytes = try PDFMaker.make(spec)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        times.sort()
        let median = times[times.count / 2]
        let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
        print("pdf \(name) \(language): \(pages(bytes)) pages, \(bytes.count) bytes, median \(String(format: "%.2f", median)) ms, "
            + "p99 \(String(format: "%.2f", p99)) ms over \(count)")
        lines.append(.object(["case": .string(name), "language": .string(language), "pages": .number(Double(pages(bytes))),
                              "bytes": .number(Double(bytes.count)), "medianMs": .number((median * 100).rounded() / 100),
                              "p99Ms": .number((p99 * 100).rounded() / 100), "count": .number(Double(count))]))
    }
}
print(JSONWriter.string(.array(lines), pretty: false))
