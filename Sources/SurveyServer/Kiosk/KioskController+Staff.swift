import Foundation
import Hummingbird
import JSON
import SurveyCore
import SurveyRendering
import SurveyStorage

/// Staff's side of a kiosk: the PIN that makes a device a kiosk for a survey, and the PIN
/// that stops it being one. Wrong PINs slow their sender down (`SecretGuard`).
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
        if let refusal = await checkPIN(fields["pin"], key: clientKey(request, context), request, context) {
            return retryingAfter(refusal.wait, setUpPage(pages, request, context, errorKey: refusal.key, status: refusal.status))
        }
        let device = KioskDevice(device: SessionSigner.newSessionID(), survey: pages.task.identifier, issuedAt: clock())
        do {
            try await runs.recordAccess("kiosk.signedIn", by: .kiosk(device.device), survey: pages.task.identifier)
        } catch {
            throw HTTPError(.serviceUnavailable)
        }
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
        // A kiosk's own sign-out is paced by the device, so nobody else's wrong PINs hold it back.
        if let refusal = await checkPIN(fields["pin"], key: "device:" + device.device, request, context) {
            return retryingAfter(refusal.wait, signOutForm(pages, device: device, request, errorKey: refusal.key, status: refusal.status))
        }
        // The device's cookie, copied before, must not start turns either: revoked here and,
        // through the store, on every replica.
        let now = clock()
        let until = device.issuedAt.addingTimeInterval(settings.deviceLifetime)
        ledger.revoke(device.device, until: until)
        try await runs.store.revokeKioskDevice(KioskRevocation(device: device.device, revokedAt: now, until: until))
        await runs.recordRefusal("kiosk.signedOut", by: .kiosk(device.device), survey: pages.task.identifier)
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

    /// Why a typed PIN is refused, if it is, with the seconds to wait when it came too soon.
    /// Wrong PINs slow down the key that sent them (`SecretGuard`): the device itself on the
    /// sign-out form of a kiosk, else the client's address (an IPv6 client's /64). A place is
    /// taken before the PIN is compared and given back when it was right.
    func checkPIN(_ typed: String?, key: String, _ request: Request, _ context: SurveyRequestContext) async
        -> (key: String, status: HTTPResponse.Status, wait: Int?)? {
        let decision = await pinGuard.reserve(key, now: clock(), what: "kiosk PINs", logger: context.logger)
        guard case .check(let reservedAt) = decision else {
            runs.metrics.countKioskPinRefused()
            await runs.recordRefusal("kiosk.pinRefused", by: .system("kiosk"), survey: (try? survey(context))?.task.identifier ?? "",
                                     detail: .object(["reason": .string("tooMany")]))
            if case .wait(let seconds) = decision { return ("kioskPinTooMany", .tooManyRequests, seconds) }
            return ("kioskPinTooMany", .tooManyRequests, nil)
        }
        guard let typed, constantTimeEqual(typed.trimmingCharacters(in: .whitespaces), settings.pin) else {
            runs.metrics.countKioskPinRefused()
            await runs.recordRefusal("kiosk.pinRefused", by: .system("kiosk"), survey: (try? survey(context))?.task.identifier ?? "",
                                     detail: .object(["reason": .string("wrong")]))
            return ("kioskPinWrong", .unprocessableContent, nil)
        }
        await pinGuard.release(key, reservedAt: reservedAt)
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

    private func retryingAfter(_ seconds: Int?, _ response: Response) -> Response {
        guard let seconds else { return response }
        var response = response
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
