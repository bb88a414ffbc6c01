import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering

/// Staff's side of a kiosk: the PIN that makes a device a kiosk for a survey, and the PIN
/// that stops it being one. Wrong PINs are limited per client address and overall.
extension KioskController {
    /// The PIN form that makes this device a kiosk. Its token is bound to a nonce cookie, as
    /// the device has no other cookie yet.
    func setUpPage(_ pages: SurveyPages, _ request: Request, _ context: SurveyRequestContext, errorKey: String?,
                   status: HTTPResponse.Status) -> Response {
        let secure = configuration.isSecure(request, context)
        let name = SessionSigner.kioskStaffCookieName(secure: secure)
        let nonce = request.cookie(named: name).flatMap { $0.utf8.count == 22 ? $0 : nil } ?? SessionSigner.newSessionID()
        var response = pinPage(pages, request, titleKey: "kioskSetUpTitle", textKey: "kioskSetUpText", buttonKey: "kioskSetUpButton",
                               action: "/setup", token: signer.pageToken(session: nonce, shownAt: clock()), errorKey: errorKey, status: status)
        response.setPlainCookie(name, nonce, maxAge: nil, secure: secure)
        return response
    }

    /// The PIN typed on the set-up form: right, and the device is a kiosk for this survey
    /// until staff stop it or `--kiosk-hours` pass.
    func setUp(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let secure = configuration.isSecure(request, context)
        let fields = try await formFields(request)
        guard let nonce = request.cookie(named: SessionSigner.kioskStaffCookieName(secure: secure)),
              signer.checkPageToken(fields["_csrf"], session: nonce, now: clock()) != nil else {
            return setUpPage(pages, request, context, errorKey: nil, status: .forbidden)
        }
        if let refusal = await checkPIN(fields["pin"], request, context) {
            return setUpPage(pages, request, context, errorKey: refusal.key, status: refusal.status)
        }
        let device = KioskDevice(device: SessionSigner.newSessionID(), survey: pages.task.identifier, issuedAt: clock())
        var response = toStart(pages, request, context)
        response.setPlainCookie(SessionSigner.kioskDeviceCookieName(secure: secure), signer.kioskDeviceValue(device),
                                maxAge: Int(settings.deviceLifetime), secure: secure)
        response.setPlainCookie(SessionSigner.kioskStaffCookieName(secure: secure), "", maxAge: 0, secure: secure)
        return response
    }

    /// The PIN form that stops this device being a kiosk, linked from the start screen.
    func signOutPage(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .waiting(let device, _) = try await standing(request, context, pages: pages) else {
            return toStart(pages, request, context)
        }
        return signOutForm(pages, device: device, request, errorKey: nil, status: .ok)
    }

    private func signOutForm(_ pages: SurveyPages, device: KioskDevice, _ request: Request, errorKey: String?,
                             status: HTTPResponse.Status) -> Response {
        pinPage(pages, request, titleKey: "kioskSignOutTitle", textKey: "kioskSignOutText", buttonKey: "kioskSignOutButton",
                action: "/signout", token: signer.pageToken(session: device.device, shownAt: clock()), errorKey: errorKey, status: status)
    }

    /// The PIN typed on the sign-out form: right, and the device is no longer a kiosk.
    func signOut(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .waiting(let device, _) = try await standing(request, context, pages: pages) else {
            return toStart(pages, request, context)
        }
        let fields = try await formFields(request)
        guard signer.checkPageToken(fields["_csrf"], session: device.device, now: clock()) != nil else {
            return signOutForm(pages, device: device, request, errorKey: nil, status: .forbidden)
        }
        if let refusal = await checkPIN(fields["pin"], request, context) {
            return signOutForm(pages, device: device, request, errorKey: refusal.key, status: refusal.status)
        }
        let language = pages.language(preferring: Self.wantedLanguages(request))
        let words = Catalog(language: language)
        let body = pages.renderPage("message", language: language, title: words["kioskSignedOutTitle"],
                                    values: ["heading": words["kioskSignedOutTitle"], "text": words["kioskSignedOutText"]], presentation: .kiosk)
        var response = html(body, visitor: nil)
        let secure = configuration.isSecure(request, context)
        response.setPlainCookie(SessionSigner.kioskDeviceCookieName(secure: secure), "", maxAge: 0, secure: secure)
        clearTurn(&response, secure: secure)
        return response
    }

    /// Why a typed PIN is refused, if it is. A place is taken in both limits before the PIN is
    /// compared (so a burst in parallel gets no more tries) and given back when it was right.
    private func checkPIN(_ typed: String?, _ request: Request, _ context: SurveyRequestContext) async
        -> (key: String, status: HTTPResponse.Status)? {
        let now = clock()
        let client = clientKey(request, context)
        guard let clientSlot = await pinByClient.reserve(client, now: now) else { return ("kioskPinTooMany", .tooManyRequests) }
        guard let overallSlot = await pinOverall.reserve("", now: now) else {
            await pinByClient.release(client, reservedAt: clientSlot)
            return ("kioskPinTooMany", .tooManyRequests)
        }
        guard let typed, constantTimeEqual(typed.trimmingCharacters(in: .whitespaces), settings.pin) else {
            return ("kioskPinWrong", .unprocessableContent)
        }
        await pinByClient.release(client, reservedAt: clientSlot)
        await pinOverall.release("", reservedAt: overallSlot)
        return nil
    }

    private func pinPage(_ pages: SurveyPages, _ request: Request, titleKey: String, textKey: String, buttonKey: String, action: String,
                         token: String, errorKey: String?, status: HTTPResponse.Status) -> Response {
        let language = pages.language(preferring: Self.wantedLanguages(request))
        let words = Catalog(language: language)
        var values: [String: Any] = [
            "csrf": token, "pinTitle": words[titleKey], "pinText": words[textKey], "pinButton": words[buttonKey],
            "pinAction": Presentation.kiosk.base(pages.task.identifier) + action, "switcher": false,
        ]
        var issues: [AnswerIssue] = []
        if let errorKey {
            values["pinError"] = words[errorKey]
            issues = [AnswerIssue(field: "pin", code: .notAChoice, problem: .catalogEntry(errorKey))]
        }
        let body = pages.renderPage("kioskPin", language: language, title: words[titleKey], values: values, issues: issues, presentation: .kiosk)
        return html(body, status: status, visitor: nil)
    }
}
