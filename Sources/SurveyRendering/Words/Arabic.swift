import Foundation

// The Arabic words of the product, in Modern Standard Arabic: the page chrome, the issues a
// participant corrects, and dates, in the same order as English.swift.
// - Instructions are worded with "يُرجى" and a verbal noun, which reads politely and does not
//   address the reader as a man or a woman; buttons are verbal nouns ("متابعة", "إلغاء").
// - Numbers keep Western digits ("27 3 2007", "14:30", "12"), which every keyboard types (the form
//   fields take Arabic-Indic digits as well);
//   units (cm, kg, lb) stay in Latin letters. Counts that would need Arabic number agreement
//   ("5 دقائق" but "15 دقيقة") are worded so that any number reads correctly.
// - Quoted choices are in «…».
// - Month names are the Gregorian ones used in Egypt and the Gulf (يناير، فبراير، مارس …).
// - "\u{200E}" (left-to-right mark) before "/resume" keeps the slash on the path's left side
//   in right-to-left text.

extension Catalog {
    /// The buttons, labels and headings; what a participant is asked to correct; and dates.
    static let arabic: [String: String] = [
        // The buttons, labels and headings around a survey's own text.
        "next": "التالي", "done": "إنهاء", "getStarted": "البدء", "back": "رجوع", "skip": "تخطي هذا السؤال",
        "skipStep": "تخطي", "saveForLater": "حفظ للمتابعة لاحقًا", "cancel": "إلغاء", "dontKnow": "لا أعرف",
        "optional": "(اختياري)", "errorSummaryTitle": "توجد مشكلة", "errorPrefix": "خطأ:",
        "yes": "نعم", "no": "لا", "selectPlaceholder": "يُرجى اختيار إجابة", "hours": "الساعات", "minutes": "الدقائق",
        "duration": "%1$@ ساعة و%2$@ دقيقة",
        "day": "اليوم", "month": "الشهر", "year": "السنة", "time": "الوقت", "feet": "الأقدام", "inches": "البوصات",
        "pounds": "الأرطال", "ounces": "الأونصات", "centimetres": "السنتيمترات", "kilograms": "الكيلوغرامات",
        "notProvided": "لا توجد إجابة", "change": "تغيير", "dateHint": "مثال: %@", "timeHint": "مثال: 14:30",
        "or": "أو", "otherPlaceholder": "يُرجى ذكر التفاصيل", "characterLimit": "الحد الأقصى لعدد الأحرف: %d",
        "learnMore": "معرفة المزيد", "skipToContent": "الانتقال إلى المحتوى الرئيسي", "topRung": "الأعلى", "bottomRung": "الأدنى",
        "rung": "الدرجة %d", "dontKnowChosen": "أجبت «لا أعرف».", "progress": "%1$@ من %2$@",
        "completedTitle": "شكرًا لك", "completedText": "تم تسجيل إجاباتك.",
        "cancelTitle": "هل تريد حذف إجاباتك؟", "cancelText": "ستُحذف إجاباتك عن هذا الاستبيان. لا يمكن التراجع عن ذلك.",
        "discardConfirm": "نعم، احذف إجاباتي", "discardKeep": "لا، العودة إلى الاستبيان",
        "discardedTitle": "تم حذف إجاباتك", "startAgain": "بدء الاستبيان من جديد",
        "savedTitle": "تم حفظ إجاباتك", "savedText": "للمتابعة من حيث توقفت، يُرجى فتح هذا الاستبيان مرة أخرى في هذا المتصفح.",
        "continueSurvey": "متابعة الاستبيان", "notFoundTitle": "الصفحة غير موجودة", "yourAnswers": "إجاباتك",
        "surveys": "الاستبيانات", "start": "البدء", "video": "الفيديو", "captions": "الترجمة النصية",
        "savedCodeIntro": "للمتابعة لاحقًا على أي جهاز، يُرجى فتح هذا الرابط:",
        "savedCodeLabel": "أو يمكنك الانتقال إلى صفحة المتابعة وإدخال هذا الرمز:",
        "savedExpires": "يعمل الرابط والرمز حتى %@. يُرجى عدم مشاركتهما مع أحد، فكل من يحصل عليهما يستطيع رؤية إجاباتك.",
        "resumeTitle": "متابعة استبيان محفوظ", "resumeCodeLabel": "رمزك المكوّن من 8 خانات", "resumeHint": "مثال: ABCD 2345",
        "resumeButton": "متابعة", "resumeLinkText": "متابعة استبيان محفوظ",
        "resumeTooMany": "تمت تجربة عدد كبير جدًا من الرموز. يُرجى الانتظار 15 دقيقة ثم المحاولة مرة أخرى",
        "resumeCodeMalformed": "يُرجى إدخال الرمز المكوّن من 8 خانات الذي حصلت عليه، مثل ABCD 2345",
        "resumeCodeUnknown": "لا يوجد استبيان محفوظ بهذا الرمز. يُرجى التحقق منه والمحاولة مرة أخرى",
        "resumeCodeExpired": "انتهت صلاحية هذا الرمز. يُرجى بدء الاستبيان من جديد",
        "claimStartTitle": "بدء الاستبيان", "claimStartText": "أُرسل إليك رابط هذا الاستبيان. يُرجى الضغط على الزر للبدء.",
        "claimResumeTitle": "متابعة استبيانك المحفوظ", "claimResumeText": "يُرجى الضغط على الزر للمتابعة من حيث توقفت.",
        "claimButton": "متابعة",
        "claimUnknown": "هذا الرابط غير صالح، وربما سبق استخدامه. يُرجى استخدام الرمز الذي حصلت عليه في \u{200E}/resume.",
        "claimExpired": "انتهت صلاحية هذا الرابط. يُرجى بدء الاستبيان من جديد.",
        "claimTooMany": "تمت تجربة عدد كبير جدًا من الروابط من هذا الاتصال. يُرجى الانتظار 15 دقيقة ثم المحاولة مرة أخرى.",
        "returningTitle": "شكرًا لك", "returningText": "تم تسجيل إجاباتك. جارٍ إعادتك إلى الصفحة التي جئت منها.",
        "returningLink": "متابعة",
        "tooManyRuns": "تم بدء عدد كبير جدًا من الاستبيانات من هذا الاتصال خلال الساعة الماضية. يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى.",
        "formExpired": "انتهت صلاحية هذا النموذج. يُرجى فتح الاستبيان مرة أخرى للمتابعة.",
        "errorReference": "إذا تكرر ذلك، يُرجى إبلاغ فريق الدراسة بهذا الرقم المرجعي: %@",

        // What a participant is asked to correct.
        "missing.choice": "يُرجى اختيار إجابة", "missing.date": "يُرجى إدخال تاريخ", "missing.time": "يُرجى إدخال وقت",
        "missing.duration": "يُرجى إدخال مدة زمنية", "missing.email": "يُرجى إدخال عنوان بريد إلكتروني", "missing.address": "يُرجى إدخال عنوان",
        "missing.height": "يُرجى إدخال الطول", "missing.weight": "يُرجى إدخال الوزن", "missing.age": "يُرجى إدخال العمر",
        "missing.number": "يُرجى إدخال رقم", "missing.text": "يُرجى إدخال إجابة",
        "conflictingValues": "وصلتنا إجابتان مختلفتان هنا؛ يُرجى اختيار إحداهما ثم المتابعة",
        "selectAnOption": "يُرجى اختيار أحد الخيارات", "selectOneOnly": "يُرجى اختيار خيار واحد فقط",
        "selectEveryList": "يُرجى اختيار قيمة من كل قائمة",
        "otherNotChosen": "يُرجى اختيار «%@» لكتابة إجابتك الخاصة، أو مسح النص",
        "exclusiveWithOthers": "يُرجى اختيار «%@» وحده، أو إلغاء تحديده لاختيار إجابات أخرى",
        "otherTextMissing": "يُرجى إدخال إجابتك لخيار «%@»",
        "enterWholeNumber": "يُرجى إدخال عدد صحيح، مثل 12", "enterNumber": "يُرجى إدخال رقم، مثل 12 أو %@",
        "fractionDigitsOne": "يُرجى إدخال رقم لا يزيد على منزلة عشرية واحدة",
        "fractionDigitsMany": "يُرجى إدخال رقم لا يزيد عدد منازله العشرية على %@",
        "numberBetween": "يُرجى إدخال رقم بين %1$@ و%2$@%3$@",
        "numberAtLeast": "يُرجى إدخال رقم يساوي %1$@%2$@ أو أكثر", "numberAtMost": "يُرجى إدخال رقم يساوي %1$@%2$@ أو أقل",
        "scaleValueBetween": "يُرجى اختيار قيمة من %1$@ إلى %2$@",
        "enterTime": "يُرجى إدخال وقت، مثل 14:30", "timeOnInterval": "يُرجى إدخال وقت تكون دقائقه من مضاعفات %1$@، مثل 14:%2$@",
        "hoursRange": "يُرجى إدخال الساعات من 0 إلى 23", "minutesRange": "يُرجى إدخال الدقائق من 0 إلى 59",
        "minutesInSteps": "يُرجى إدخال الدقائق من مضاعفات %1$@، مثل %2$@",
        "enterDate": "يُرجى إدخال تاريخ", "realDate": "يُرجى إدخال تاريخ صحيح، مثل %@",
        "datePart.day": "يجب أن يتضمن التاريخ اليوم", "datePart.month": "يجب أن يتضمن التاريخ الشهر",
        "datePart.year": "يجب أن يتضمن التاريخ السنة", "yearFourDigits": "يجب أن تتكون السنة من 4 أرقام",
        "dateOn": "يجب أن يكون التاريخ %@", "dateBetween": "يجب أن يكون التاريخ بين %1$@ و%2$@",
        "dateOnOrAfter": "يجب أن يكون التاريخ %@ أو بعده", "dateOnOrBefore": "يجب أن يكون التاريخ %@ أو قبله",
        "enterRealDate": "يُرجى إدخال تاريخ صحيح",
        "momentNotBefore": "يجب أن يكون التاريخ والوقت %@ أو بعد ذلك", "momentNotAfter": "يجب أن يكون التاريخ والوقت %@ أو قبل ذلك",
        "tooShort": "يجب ألا يقل عدد أحرف الإجابة عن %@", "tooLong": "يجب ألا يزيد عدد أحرف الإجابة على %@", "checkAnswer": "يُرجى التحقق من إجابتك",
        "email": "يُرجى إدخال عنوان بريد إلكتروني بالصيغة الصحيحة، مثل name@example.com",
        "ageWholeYears": "يُرجى إدخال العمر بالسنوات الكاملة، مثل 42", "ageBetween": "يُرجى إدخال عمر من %1$@ إلى %2$@",
        "heightCentimetres": "يُرجى إدخال الطول بالسنتيمتر، مثل 170", "heightBetweenCentimetres": "يُرجى إدخال طول بين 1 و300 cm",
        "heightAboveZero": "يُرجى إدخال طول أكبر من 0", "feetRange": "يُرجى إدخال الأقدام بعدد صحيح من 0 إلى 9",
        "inchesRange": "يُرجى إدخال البوصات من 0 إلى 11",
        "weightInPounds": "يُرجى إدخال الوزن بالرطل، مثل 70", "weightInKilograms": "يُرجى إدخال الوزن بالكيلوغرام، مثل 70",
        "weightBetween": "يُرجى إدخال وزن بين %1$@ و%2$@ %3$@",
        "poundsWhole": "يُرجى إدخال الأرطال بعدد صحيح", "ouncesRange": "يُرجى إدخال الأونصات من 0 إلى 15",

        // Dates: "1 يناير 2026", "1 يناير 2026 الساعة 09:00".
        "dayFormat": "%1$@ %2$@ %3$@", "momentFormat": "%1$@ الساعة %2$@",
        "month.1": "يناير", "month.2": "فبراير", "month.3": "مارس", "month.4": "أبريل", "month.5": "مايو", "month.6": "يونيو",
        "month.7": "يوليو", "month.8": "أغسطس", "month.9": "سبتمبر", "month.10": "أكتوبر", "month.11": "نوفمبر",
        "month.12": "ديسمبر",
        // A clinic's kiosk, the server's error pages and the language switcher.
        "languageName": "العربية", "languageLabel": "اللغة", "changeLanguage": "تغيير اللغة",
        "kioskSetUpTitle": "إعداد هذا الجهاز كشاشة استقبال",
        "kioskSetUpText": "للموظفين فقط. يُرجى إدخال الرقم السري لشاشة الاستقبال. بعد ذلك يمكن للمرضى الإجابة عن هذا الاستبيان على هذا الجهاز واحدًا تلو الآخر.",
        "kioskPinLabel": "الرقم السري لشاشة الاستقبال", "kioskSetUpButton": "إعداد شاشة الاستقبال",
        "kioskPinWrong": "الرقم السري غير صحيح. يُرجى التحقق منه والمحاولة مرة أخرى",
        "kioskPinTooMany": "أُدخلت أرقام سرية خاطئة كثيرة. يُرجى الانتظار دقيقة واحدة ثم المحاولة مرة أخرى",
        "kioskSignOutLink": "للموظفين: إيقاف استخدام هذا الجهاز كشاشة استقبال", "kioskSignOutTitle": "إيقاف استخدام هذا الجهاز كشاشة استقبال",
        "kioskSignOutText": "للموظفين فقط. يُرجى إدخال الرقم السري لإيقاف استخدام هذا الجهاز كشاشة استقبال.",
        "kioskSignOutButton": "إيقاف شاشة الاستقبال", "kioskSignedOutTitle": "لم يعد هذا الجهاز شاشة استقبال",
        "kioskSignedOutText": "لم يعد بالإمكان بدء الاستبيان هنا. يُرجى إغلاق المتصفح.",
        "kioskStartText": "يُرجى اختيار «البدء» للإجابة عن الأسئلة. تُمسح إجاباتك من هذه الشاشة عند الانتهاء.",
        "kioskChooseLanguage": "يُرجى اختيار لغتك للبدء",
        "kioskIdleTitle": "هل ما زلت هنا؟",
        "kioskIdleText": "حفاظًا على خصوصية إجاباتك، ستعود هذه الشاشة قريبًا إلى البداية.",
        "kioskContinue": "متابعة", "kioskBackToStart": "العودة إلى البداية",
        "kioskReturnText": "ستعود هذه الشاشة إلى البداية بعد %@ ثانية.",
        "kioskSavedText": "يُرجى تدوين هذا الرمز. للمتابعة لاحقًا، يُرجى فتح \u{200E}%@ على هاتفك أو حاسوبك وإدخال الرمز.",
        "kioskCancelledTitle": "حُذفت إجاباتك",
        "errorNotFoundText": "لا يوجد شيء على هذا العنوان.", "errorTitle": "عذرًا، توجد مشكلة",
        "notSaved": "تعذّر علينا حفظ ذلك الآن. إجاباتك ما زالت هنا: اضغط على التالي مرة أخرى.", "errorStoreUnavailable": "لا يمكننا الوصول إلى سجلاتنا الآن. انتظر قليلًا ثم حاول مرة أخرى.", "errorText": "حدث خطأ ما. يُرجى المحاولة مرة أخرى بعد قليل.", "errorNoSurvey": "لا يوجد استبيان على هذا العنوان.",
        "errorFormType": "تعذّرت قراءة النموذج. يُرجى الرجوع والمحاولة مرة أخرى.",
        "errorFormTooLarge": "النموذج كبير جدًا. يُرجى اختصار إجاباتك والمحاولة مرة أخرى.",
        "errorNoAnswers": "لا توجد إجابات لعرضها هنا.", "errorNoResult": "لم يُكمل هذا المتصفح هذا الاستبيان.",
        "errorMethod": "لا يمكن استخدام هذا العنوان بهذه الطريقة.",
    ]
}
