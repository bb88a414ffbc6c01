import Foundation

// The English words of the product: the page chrome, the issues a participant corrects, and
// dates. English is also what every other language falls back to, key by key.

extension Catalog {
    /// The buttons, labels and headings around a survey's own text.
    static let englishChrome: [String: String] = [
        "next": "Next", "done": "Done", "getStarted": "Get Started", "back": "Back", "skip": "Skip this question",
        "skipStep": "Skip", "saveForLater": "Save for later", "cancel": "Cancel", "dontKnow": "I don't know",
        "optional": "(optional)", "errorSummaryTitle": "There is a problem", "errorPrefix": "Error:",
        "yes": "Yes", "no": "No", "selectPlaceholder": "Select an answer", "hours": "Hours", "minutes": "Minutes",
        "duration": "%1$@ hours %2$@ minutes",
        "day": "Day", "month": "Month", "year": "Year", "time": "Time", "feet": "Feet", "inches": "Inches",
        "pounds": "Pounds", "ounces": "Ounces", "centimetres": "Centimetres", "kilograms": "Kilograms",
        "notProvided": "Not provided", "change": "Change", "dateHint": "For example, %@", "timeHint": "For example, 14:30",
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

    /// What a participant is asked to correct, worded from `AnswerIssue.Problem` in IssueWords.swift.
    static let englishIssues: [String: String] = [
        "missing.choice": "Select an answer", "missing.date": "Enter a date", "missing.time": "Enter a time",
        "missing.duration": "Enter a length of time", "missing.email": "Enter an email address", "missing.address": "Enter an address",
        "missing.height": "Enter a height", "missing.weight": "Enter a weight", "missing.age": "Enter an age",
        "missing.number": "Enter a number", "missing.text": "Enter an answer",
        "conflictingValues": "We received two different answers here; choose one and continue",
        "selectAnOption": "Select one of the options", "selectOneOnly": "Select one option only",
        "selectEveryList": "Select a value in every list",
        "otherNotChosen": "Select “%@” to give your own answer, or clear the text",
        "exclusiveWithOthers": "Select “%@” on its own, or untick it to choose other answers",
        "otherTextMissing": "Enter your answer for “%@”",
        "enterWholeNumber": "Enter a whole number, like 12", "enterNumber": "Enter a number, like 12 or %@",
        "fractionDigitsOne": "Enter a number with no more than 1 decimal place",
        "fractionDigitsMany": "Enter a number with no more than %@ decimal places",
        "numberBetween": "Enter a number between %1$@ and %2$@%3$@",
        "numberAtLeast": "Enter a number that is %1$@%2$@ or more", "numberAtMost": "Enter a number that is %1$@%2$@ or less",
        "scaleValueBetween": "Select a value from %1$@ to %2$@",
        "enterTime": "Enter a time, like 14:30", "timeOnInterval": "Enter a time in steps of %1$@ minutes, like 14:%2$@",
        "hoursRange": "Enter hours from 0 to 23", "minutesRange": "Enter minutes from 0 to 59",
        "minutesInSteps": "Enter minutes in steps of %1$@, like %2$@",
        "enterDate": "Enter a date", "realDate": "Enter a real date, like %@",
        "datePart.day": "The date must include a day", "datePart.month": "The date must include a month",
        "datePart.year": "The date must include a year", "yearFourDigits": "Year must include 4 numbers",
        "dateOn": "The date must be %@", "dateBetween": "The date must be between %1$@ and %2$@",
        "dateOnOrAfter": "The date must be the same as or after %@", "dateOnOrBefore": "The date must be the same as or before %@",
        "enterRealDate": "Enter a real date",
        "momentNotBefore": "The date and time must be %@ or later", "momentNotAfter": "The date and time must be %@ or earlier",
        "tooShort": "Answer must be %@ characters or more", "tooLong": "Answer must be %@ characters or fewer", "checkAnswer": "Check your answer",
        "email": "Enter an email address in the correct format, like name@example.com",
        "ageWholeYears": "Enter an age in whole years, like 42", "ageBetween": "Enter an age from %1$@ to %2$@",
        "heightCentimetres": "Enter a height in centimetres, like 170", "heightBetweenCentimetres": "Enter a height between 1 and 300 cm",
        "heightAboveZero": "Enter a height greater than 0", "feetRange": "Enter feet as a whole number from 0 to 9",
        "inchesRange": "Enter inches from 0 to 11",
        "weightInPounds": "Enter a weight in pounds, like 70", "weightInKilograms": "Enter a weight in kilograms, like 70",
        "weightBetween": "Enter a weight between %1$@ and %2$@ %3$@",
        "poundsWhole": "Enter pounds as a whole number", "ouncesRange": "Enter ounces from 0 to 15",
    ]

    /// Dates as a participant reads them: "1 January 2026", "1 January 2026 at 09:00".
    static let englishDates: [String: String] = [
        "dayFormat": "%1$@ %2$@ %3$@", "momentFormat": "%1$@ at %2$@",
        "month.1": "January", "month.2": "February", "month.3": "March", "month.4": "April", "month.5": "May", "month.6": "June",
        "month.7": "July", "month.8": "August", "month.9": "September", "month.10": "October", "month.11": "November",
        "month.12": "December",
    ]

    /// A clinic's kiosk, the server's error pages and the language switcher.
    static let englishKiosk: [String: String] = [
        "languageName": "English", "languageLabel": "Language", "changeLanguage": "Change language",
        "kioskSetUpTitle": "Set up this device as a kiosk",
        "kioskSetUpText": "Staff only. Enter the kiosk PIN. Patients can then answer this survey on this device, one after another.",
        "kioskPinLabel": "Kiosk PIN", "kioskSetUpButton": "Set up kiosk",
        "kioskPinWrong": "The PIN is not right. Check it and try again",
        "kioskPinTooMany": "Too many wrong PINs were entered. Wait a minute, then try again",
        "kioskSignOutLink": "Staff: stop using this device as a kiosk", "kioskSignOutTitle": "Stop using this device as a kiosk",
        "kioskSignOutText": "Staff only. Enter the kiosk PIN to stop using this device as a kiosk.",
        "kioskSignOutButton": "Stop kiosk", "kioskSignedOutTitle": "This device is no longer a kiosk",
        "kioskSignedOutText": "Patients can no longer start the survey here. Close the browser.",
        "kioskStartText": "Select Start to answer the questions. Your answers are cleared from this screen when you finish.",
        "kioskChooseLanguage": "Choose your language to start",
        "kioskIdleTitle": "Are you still there?",
        "kioskIdleText": "To keep your answers private, this screen will soon go back to the start.",
        "kioskContinue": "Continue", "kioskBackToStart": "Back to the start",
        "kioskReturnText": "This screen goes back to the start in %@ seconds.",
        "kioskSavedText": "Write this code down. To carry on later, go to %@ on your own phone or computer and enter the code.",
        "kioskCancelledTitle": "Your answers have been deleted",
        "errorNotFoundText": "There is nothing at this address.", "errorTitle": "Sorry, there is a problem",
        "notSaved": "We could not save that just now. Your answers are still here: press Next again.", "errorStoreUnavailable": "We cannot reach our records just now. Wait a moment and try again.", "errorText": "Something went wrong. Try again in a moment.", "errorNoSurvey": "There is no survey at this address.",
        "errorFormType": "The form could not be read. Go back and try again.", "errorFormTooLarge": "The form is too large. Shorten your answers and try again.",
        "errorNoAnswers": "There are no answers to show here.", "errorNoResult": "This browser has no finished run of this survey.",
        "errorMethod": "This address cannot be used like that.",
    ]

    static let english = englishChrome.merging(englishIssues) { first, _ in first }.merging(englishDates) { first, _ in first }
        .merging(englishKiosk) { first, _ in first }
}
