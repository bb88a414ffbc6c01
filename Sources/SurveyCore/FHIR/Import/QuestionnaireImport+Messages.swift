import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The message beside an answer that does not match an item's pattern, when the
    /// Questionnaire gives no `entryFormat` to say what to enter: in the survey's languages
    /// that the server's catalogs speak (English for any other).
    func entryMessage(url: Bool) -> Phrase {
        func sentence(_ language: String) -> String? {
            let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? language
            return Self.entryMessages[primary].map { url ? $0.url : $0.pattern }
        }
        let english = Self.entryMessages["en"]!
        return Phrase(sentence(baseLanguage) ?? (url ? english.url : english.pattern),
                      translations: languages.compactMap { language in sentence(language).map { (language, $0) } })
    }

    /// By primary language tag: the message for a web address, and for any other pattern.
    static let entryMessages: [String: (url: String, pattern: String)] = [
        "en": ("Enter a web address, such as https://example.org.",
               "This answer is not in the form this question asks for; check it and enter it again."),
        "es": ("Escriba una dirección web, como https://example.org.",
               "Esta respuesta no tiene la forma que pide la pregunta; revísela y escríbala de nuevo."),
        "de": ("Geben Sie eine Webadresse ein, zum Beispiel https://example.org.",
               "Diese Antwort hat nicht die Form, nach der die Frage fragt; prüfen Sie sie und geben Sie sie erneut ein."),
        "fr": ("Saisissez une adresse web, par exemple https://example.org.",
               "Cette réponse n’a pas la forme que demande la question ; vérifiez-la et saisissez-la à nouveau."),
        "ar": ("أدخل عنوان موقع ويب، مثل https://example.org.",
               "هذه الإجابة ليست بالشكل الذي يطلبه السؤال؛ تحقَّق منها وأدخلها مرة أخرى."),
    ]
}
