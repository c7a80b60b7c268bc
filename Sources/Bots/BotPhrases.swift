/// The few short lines bots chat, per room language (English for one without lines).
enum BotPhrases {
    enum Moment: Sendable {
        case greeting
        case guessedIt
        case nearMiss
        case gameOver
    }

    static func lines(_ moment: Moment, language: String) -> [String] {
        let table = all[language] ?? all["en"] ?? [:]
        return table[moment] ?? []
    }

    private static let all: [String: [Moment: [String]]] = [
        "en": [.greeting: ["hi!", "hello all", "let's go"], .guessedIt: ["got it!", "yes!", "easy one"],
               .nearMiss: ["so close", "hmm", "almost"], .gameOver: ["gg", "good game!", "that was fun"]],
        "de": [.greeting: ["hallo!", "hi zusammen", "los geht's"], .guessedIt: ["hab's!", "ja!", "leicht"],
               .nearMiss: ["so knapp", "hmm", "fast"], .gameOver: ["gg", "gutes Spiel!", "hat Spaß gemacht"]],
        "fr": [.greeting: ["salut !", "bonjour tout le monde", "c'est parti"], .guessedIt: ["trouvé !", "oui !", "facile"],
               .nearMiss: ["presque", "hmm", "si près"], .gameOver: ["gg", "bien joué !", "c'était sympa"]],
        "es": [.greeting: ["¡hola!", "hola a todos", "vamos"], .guessedIt: ["¡lo tengo!", "¡sí!", "fácil"],
               .nearMiss: ["casi", "hmm", "por poco"], .gameOver: ["gg", "¡buena partida!", "qué divertido"]],
        "pt": [.greeting: ["oi!", "olá a todos", "vamos lá"], .guessedIt: ["acertei!", "sim!", "fácil"],
               .nearMiss: ["quase", "hmm", "por pouco"], .gameOver: ["gg", "bom jogo!", "foi divertido"]],
        "it": [.greeting: ["ciao!", "ciao a tutti", "si parte"], .guessedIt: ["preso!", "sì!", "facile"],
               .nearMiss: ["quasi", "hmm", "per poco"], .gameOver: ["gg", "bella partita!", "divertente"]],
        "ru": [.greeting: ["привет!", "всем привет", "поехали"], .guessedIt: ["угадал!", "да!", "легко"],
               .nearMiss: ["почти", "хмм", "чуть-чуть"], .gameOver: ["gg", "хорошая игра!", "было весело"]],
        "ar": [.greeting: ["مرحبا!", "أهلا بالجميع", "هيا بنا"], .guessedIt: ["عرفتها!", "نعم!", "سهلة"],
               .nearMiss: ["قريب جدا", "همم", "تقريبا"], .gameOver: ["gg", "لعبة جميلة!", "كانت ممتعة"]],
    ]
}
