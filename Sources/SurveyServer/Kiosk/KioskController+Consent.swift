import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A consent taken on a kiosk: the end page gives the copy's code (the copy itself never
/// touches the tablet), and a member of staff countersigns with the kiosk PIN and their name.
extension KioskController {
    /// The end page of a turn whose consent was certified, or nil.
    func consentDone(_ pages: SurveyPages, record: RunRecord, device: KioskDevice, language: String, _ request: Request,
                     _ context: SurveyRequestContext) -> String? {
        guard record.run.consent?.copySHA256 != nil, let ticket = record.resume, let code = ticket.code else { return nil }
        let end = SurveyPages.ConsentEnd(code: code, codeExpires: ticket.expiresAt,
                                         withdrawLink: configuration.absoluteURL("/withdraw/\(ticket.token)", for: request, context),
                                         withdrawPage: configuration.absoluteURL("/withdraw", for: request, context),
                                         copyPage: configuration.absoluteURL("/copy", for: request, context),
                                         copyMinutes: Int(RunService.copyCodeLifetime / 60))
        var countersign: SurveyPages.Countersign?
        if pages.task.consentDocument?.countersignature != nil, record.run.consent?.countersignature == nil {
            countersign = countersignForm(pages, record: record, device: device)
        }
        return pages.renderConsentDone(run: record.run, end: end, language: language, timeZone: runs.timeZone(of: pages.survey),
                                       presentation: .kiosk, countersign: countersign)
    }

    private func countersignForm(_ pages: SurveyPages, record: RunRecord, device: KioskDevice) -> SurveyPages.Countersign {
        SurveyPages.Countersign(action: Presentation.kiosk.base(pages.task.identifier) + "/countersign", run: record.id.uuidString.lowercased(),
                                token: signer.csrfToken(session: "countersign:" + device.device, run: record.id))
    }

    /// The end page's "Countersign" button (the form with the name and the PIN), and that form
    /// sent: the PIN right, the consent is countersigned and a copy with both signatures kept.
    func countersign(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .waiting(let device, _) = try await standing(request, context, pages: pages) else { return toStart(pages, request, context) }
        let fields = try await formFields(request)
        guard let text = fields["run"], let id = UUID(uuidString: text),
              signer.checkCSRF(fields["_csrf"], session: "countersign:" + device.device, run: id),
              let record = try await runs.run(id: id), record.surveyIdentifier == pages.task.identifier,
              record.run.consent?.copySHA256 != nil else {
            return toStart(pages, request, context)
        }
        let language = pages.language(preferring: Self.wantedLanguages(request))
        let words = Catalog(language: language)
        let form = countersignForm(pages, record: record, device: device)
        func page(_ errorKey: String?, status: HTTPResponse.Status, typed: String = "") -> Response {
            html(pages.renderCountersign(form, language: language, typedName: typed, errorKey: errorKey), status: status, visitor: nil)
        }
        guard record.run.consent?.countersignature == nil else {
            return html(pages.renderPage("message", language: language, title: words["consentCountersignature"],
                                         values: ["heading": words["consentCountersignature"], "text": words["consentAlreadyCountersigned"]],
                                         presentation: .kiosk), visitor: nil)
        }
        // The end page's button opens the form; the form brings the name and the PIN.
        guard fields["pin"] != nil else { return page(nil, status: .ok) }
        let name = (fields["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = await checkPIN(fields["pin"], key: "device:" + device.device, request, context) {
            var response = page(refusal.key, status: refusal.status, typed: name)
            if let wait = refusal.wait { response.headers[.retryAfter] = String(wait) }
            return response
        }
        guard (1...100).contains(name.count) else { return page("consentCountersignNameMissing", status: .unprocessableContent, typed: name) }
        guard try await runs.countersign(record, name: name, language: language, by: .staff(name)) != nil else { return toStart(pages, request, context) }
        var values = pages.kioskEndValues(language: language)
        values["heading"] = words["consentCountersignature"]
        values["text"] = words["consentCountersigned"]
        return html(pages.renderPage("message", language: language, title: words["consentCountersignature"], values: values,
                                     presentation: .kiosk), visitor: nil)
    }
}
