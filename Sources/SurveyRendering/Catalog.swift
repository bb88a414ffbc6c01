import Foundation

/// The server's own words, per language. A survey's text comes from the survey; these are
/// the buttons, labels and headings around it.
public struct Catalog: Sendable {
    public let language: String
    private let words: [String: String]

    public subscript(key: String) -> String { words[key] ?? Catalog.english[key] ?? key }

    static let english: [String: String] = [
        "next": "Next", "done": "Done", "getStarted": "Get Started", "back": "Back", "skip": "Skip this question",
        "skipStep": "Skip", "saveForLater": "Save for later", "cancel": "Cancel", "dontKnow": "I don't know",
        "optional": "(optional)", "errorSummaryTitle": "There is a problem", "errorPrefix": "Error:",
        "yes": "Yes", "no": "No", "selectPlaceholder": "Select an answer", "hours": "Hours", "minutes": "Minutes",
        "day": "Day", "month": "Month", "year": "Year", "time": "Time", "feet": "Feet", "inches": "Inches",
        "pounds": "Pounds", "ounces": "Ounces", "centimetres": "Centimetres", "kilograms": "Kilograms",
        "notProvided": "Not provided", "change": "Change", "dateHint": "For example, 27 3 2007", "timeHint": "For example, 14:30",
        "or": "or", "otherPlaceholder": "Give details", "characterLimit": "You can enter up to %d characters",
        "learnMore": "Learn more", "skipToContent": "Skip to main content", "topRung": "Top", "bottomRung": "Bottom",
        "rung": "Rung %d", "dontKnowChosen": "You answered “I don't know”.", "progress": "%1$@ of %2$@",
        "completedTitle": "Thank you", "completedText": "Your answers have been recorded.",
        "cancelTitle": "Do you want to discard your answers?", "cancelText": "Your answers to this survey will be deleted. This cannot be undone.",
        "discardConfirm": "Yes, discard my answers", "discardKeep": "No, go back to the survey",
        "discardedTitle": "Your answers have been deleted", "startAgain": "Start the survey again",
        "savedTitle": "Your answers are saved", "savedText": "Open this survey again in this browser to carry on where you stopped.",
        "continueSurvey": "Continue the survey", "notFoundTitle": "Page not found", "yourAnswers": "Your answers",
        "surveys": "Surveys", "start": "Start", "video": "Video", "captions": "Captions",
        "savedCodeIntro": "To carry on later on any device, open this link:", "savedCodeLabel": "Or go to the resume page and enter this code:",
        "savedExpires": "The link and the code work until %@. Keep them private: anyone with them can see your answers.",
        "resumeTitle": "Carry on with a saved survey", "resumeCodeLabel": "Your 8-character code", "resumeHint": "For example, ABCD 2345",
        "resumeButton": "Carry on", "resumeLinkText": "Carry on with a saved survey",
        "resumeTooMany": "Too many codes were tried. Wait 15 minutes, then try again",
        "resumeCodeMalformed": "Enter the 8-character code you were given, like ABCD 2345",
        "resumeCodeUnknown": "No saved survey has this code. Check it and try again",
        "resumeCodeExpired": "This code has expired. Start the survey again",
        "claimStartTitle": "Start the survey", "claimStartText": "You were sent a link to this survey. Select the button to begin.",
        "claimResumeTitle": "Carry on with your saved survey", "claimResumeText": "Select the button to carry on where you stopped.",
        "claimButton": "Continue", "claimUnknown": "This link is not valid. It may have been used already. Use the code you were given at /resume.",
        "claimExpired": "This link has expired. Start the survey again.",
        "claimTooMany": "Too many links were tried from this connection. Wait 15 minutes, then try again.",
        "returningTitle": "Thank you", "returningText": "Your answers have been recorded. You are being sent back to where you came from.",
        "returningLink": "Continue",
        "tooManyRuns": "Too many surveys were started from this connection in the last hour. Wait a while, then try again.",
        "formExpired": "This form has expired. Open the survey again to carry on.",
        "errorReference": "If it happens again, tell the study team this reference: %@",
    ]

    static let spanish: [String: String] = [
        "next": "Siguiente", "done": "Terminar", "getStarted": "Empezar", "back": "Atrás", "skip": "Omitir esta pregunta",
        "skipStep": "Omitir", "saveForLater": "Guardar para más tarde", "cancel": "Cancelar", "dontKnow": "No lo sé",
        "optional": "(opcional)", "errorSummaryTitle": "Hay un problema", "errorPrefix": "Error:",
        "yes": "Sí", "no": "No", "selectPlaceholder": "Elija una respuesta", "hours": "Horas", "minutes": "Minutos",
        "day": "Día", "month": "Mes", "year": "Año", "time": "Hora", "feet": "Pies", "inches": "Pulgadas",
        "pounds": "Libras", "ounces": "Onzas", "centimetres": "Centímetros", "kilograms": "Kilogramos",
        "notProvided": "Sin respuesta", "change": "Cambiar", "dateHint": "Por ejemplo, 27 3 2007", "timeHint": "Por ejemplo, 14:30",
        "or": "o", "otherPlaceholder": "Dé detalles", "characterLimit": "Puede escribir hasta %d caracteres",
        "learnMore": "Más información", "skipToContent": "Saltar al contenido principal",
        "completedTitle": "Gracias", "completedText": "Sus respuestas se han guardado.",
        "cancelTitle": "¿Quiere descartar sus respuestas?", "cancelText": "Se borrarán sus respuestas. No se puede deshacer.",
        "discardConfirm": "Sí, descartar mis respuestas", "discardKeep": "No, volver a la encuesta",
        "discardedTitle": "Sus respuestas se han borrado", "startAgain": "Empezar de nuevo",
        "savedTitle": "Sus respuestas están guardadas", "savedText": "Abra esta encuesta de nuevo en este navegador para continuar.",
        "continueSurvey": "Continuar la encuesta", "yourAnswers": "Sus respuestas",
        "savedCodeIntro": "Para continuar más tarde en cualquier dispositivo, abra este enlace:",
        "savedCodeLabel": "O vaya a la página para continuar y escriba este código:",
        "savedExpires": "El enlace y el código funcionan hasta el %@. No los comparta: quien los tenga puede ver sus respuestas.",
        "resumeTitle": "Continuar una encuesta guardada", "resumeCodeLabel": "Su código de 8 caracteres", "resumeHint": "Por ejemplo, ABCD 2345",
        "resumeButton": "Continuar", "resumeLinkText": "Continuar una encuesta guardada",
        "resumeTooMany": "Se probaron demasiados códigos. Espere 15 minutos y vuelva a intentarlo",
        "resumeCodeMalformed": "Escriba el código de 8 caracteres que recibió, como ABCD 2345",
        "resumeCodeUnknown": "Ninguna encuesta guardada tiene este código. Compruébelo y vuelva a intentarlo",
        "resumeCodeExpired": "Este código ha caducado. Empiece la encuesta de nuevo",
        "claimStartTitle": "Empezar la encuesta", "claimStartText": "Recibió un enlace a esta encuesta. Pulse el botón para empezar.",
        "claimResumeTitle": "Continuar su encuesta guardada", "claimResumeText": "Pulse el botón para continuar donde lo dejó.",
        "claimButton": "Continuar", "claimUnknown": "Este enlace no es válido. Puede que ya se haya usado. Use el código que recibió en /resume.",
        "claimExpired": "Este enlace ha caducado. Empiece la encuesta de nuevo.",
        "claimTooMany": "Se probaron demasiados enlaces desde esta conexión. Espere 15 minutos y vuelva a intentarlo.",
        "returningTitle": "Gracias", "returningText": "Sus respuestas se han guardado. Le estamos llevando de vuelta a donde venía.",
        "returningLink": "Continuar",
        "tooManyRuns": "Se empezaron demasiadas encuestas desde esta conexión en la última hora. Espere un poco y vuelva a intentarlo.",
        "formExpired": "Este formulario ha caducado. Abra la encuesta de nuevo para continuar.",
        "errorReference": "Si vuelve a ocurrir, indique esta referencia al equipo del estudio: %@",
    ]

    public init(language: String) {
        self.language = language
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? "en"
        words = primary == "es" ? Self.spanish : Self.english
    }

    /// Whether the language is written right to left.
    public static func isRightToLeft(_ language: String) -> Bool {
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return ["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku"].contains(primary)
    }

    public func format(_ key: String, _ number: Int) -> String {
        self[key].replacingOccurrences(of: "%d", with: String(number))
    }

    /// "2 of 5": where a step stands in the survey.
    public func progress(_ current: Int, of total: Int) -> String {
        self["progress"].replacingOccurrences(of: "%1$@", with: String(current)).replacingOccurrences(of: "%2$@", with: String(total))
    }

    /// The sentence of an error page that gives the reference of the failed request.
    public func reference(_ requestID: String) -> String {
        self["errorReference"].replacingOccurrences(of: "%@", with: requestID)
    }
}
