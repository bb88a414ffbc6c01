import Foundation

// The Spanish words of the product; a key missing here is taken from English.

extension Catalog {
    /// The buttons, labels and headings. Issues, dates and the progress line are not yet
    /// translated and come from English.
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
}
