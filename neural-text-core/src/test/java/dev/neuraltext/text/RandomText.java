package dev.neuraltext.text;

import java.util.Random;

/** Random strings that stress text analysis: identifiers, surrogates (paired and lone), controls, long runs. */
final class RandomText {

    private static final String[] PIECES = {
        "ChatModel", "HTTPServer", "snake_case", "SCREAMING_CASE", "utf8", "Base64", "java.util.Map", "@Bean", "<T>",
        "Größe", "日本語", "e\u0301", "\uD83D\uDE00", "\uD83D", "\uDE00", "\u0000", "\u001F", "\t", "\n", " ", "_", "__",
        "ǅungla", "İstanbul", "ΣΑΣ", "4j", "A1B2", "ﬃ", "\u200B", "\uFEFF", "-", ".", "$x"
    };

    private RandomText() {
    }

    static String next(Random random) {
        StringBuilder sb = new StringBuilder();
        int pieces = random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            switch (random.nextInt(5)) {
                case 0 -> sb.append(PIECES[random.nextInt(PIECES.length)]);
                case 1 -> sb.append((char) random.nextInt(0x10000)); // any UTF-16 unit, lone surrogates included
                case 2 -> sb.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
                case 3 -> {
                    int len = random.nextInt(random.nextInt(20) == 0 ? 2_000 : 20);
                    for (int k = 0; k < len; k++) {
                        sb.append(random.nextBoolean() ? (char) ('a' + random.nextInt(26)) : (char) ('A' + random.nextInt(26)));
                    }
                }
                default -> sb.append((char) random.nextInt(128));
            }
        }
        return sb.toString();
    }
}
