package dev.neuraltext.onnx;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pure-Java BERT WordPiece tokenizer configured by a Hugging Face {@code tokenizer.json}: the added tokens (e.g.
 * {@code [CLS]}) matched in the raw text, normalizer {@code BertNormalizer} (clean text, pad CJK ideographs, strip
 * accents, lower case), pre-tokenizer {@code BertPreTokenizer} (split on white space, isolate punctuation), model
 * {@code WordPiece} (longest vocabulary entry first, a continuing-subword prefix, one unknown token for a word that
 * cannot be covered or is longer than {@code max_input_chars_per_word} characters). It gives the ids the native
 * tokenizer gives for a single text without special tokens, truncation or padding
 * ({@link ModelTokenizer#contentIds}), at a fraction of its cost and without a native library. Internal.
 *
 * <p>{@link #fromJson} rejects, with {@link UnsupportedTokenizerException}, any tokenizer.json with another
 * normalizer, pre-tokenizer or model, or with added tokens that are normalised or strip spaces: those need the
 * native tokenizer.
 *
 * <p>Thread safety: safe for concurrent use (immutable, apart from the character table's racy cache).
 */
final class WordPieceTokenizer {

    /** A tokenizer.json this class cannot reproduce; the message names the file and the component. */
    static final class UnsupportedTokenizerException extends NonRetriableNeuralTextException {
        private static final long serialVersionUID = 1L;

        UnsupportedTokenizerException(String message) {
            super(message, null);
        }
    }

    private final BertCharClasses chars;
    private final WordPieceTrie vocabulary;
    /** The trie node after the continuing-subword prefix ("##"), or {@link WordPieceTrie#NONE}. */
    private final int continuationRoot;
    private final int unknownId;
    private final int maxWordChars;
    /** Added tokens, longest first (leftmost-longest matching), and their ids. */
    private final String[] addedTokens;
    private final int[] addedIds;
    /** Whether an added token starts with this ASCII character; {@link #addedStartsAboveAscii} for the rest. */
    private final boolean[] addedStartsAscii = new boolean[128];
    private final boolean addedStartsAboveAscii;
    private final int vocabSize;

    private WordPieceTokenizer(BertCharClasses chars, Map<String, Integer> vocab, String continuingPrefix,
            int unknownId, int maxWordChars, List<Map.Entry<String, Integer>> added) {
        this.chars = chars;
        this.vocabulary = new WordPieceTrie(vocab);
        this.continuationRoot = vocabulary.walk(continuingPrefix);
        this.unknownId = unknownId;
        this.maxWordChars = maxWordChars;
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(added);
        sorted.sort(Comparator.comparingInt((Map.Entry<String, Integer> e) -> e.getKey().length()).reversed());
        this.addedTokens = new String[sorted.size()];
        this.addedIds = new int[sorted.size()];
        boolean above = false;
        int max = -1;
        for (int i = 0; i < sorted.size(); i++) {
            addedTokens[i] = sorted.get(i).getKey();
            addedIds[i] = sorted.get(i).getValue();
            max = Math.max(max, addedIds[i]);
            char first = addedTokens[i].charAt(0);
            if (first < 128) {
                addedStartsAscii[first] = true;
            } else {
                above = true;
            }
        }
        this.addedStartsAboveAscii = above;
        for (int id : vocab.values()) {
            max = Math.max(max, id);
        }
        this.vocabSize = max + 1;
    }

    /**
     * Reads the configuration of a BERT WordPiece tokenizer from the bytes of its {@code tokenizer.json}.
     *
     * @param source the file or resource the bytes come from, named in every error
     * @throws UnsupportedTokenizerException naming {@code source} and the component when the tokenizer is not of the
     *                                       BERT WordPiece shape this class reproduces
     * @throws NonRetriableNeuralTextException naming {@code source} when the bytes are not a tokenizer.json
     */
    static WordPieceTokenizer fromJson(byte[] json, String source) {
        JsonObject root;
        try {
            root = JsonParser.parseString(new String(json, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException("tokenizer file " + source + " is not valid JSON: " + e, e);
        }
        JsonObject model = object(root, "model");
        if (model == null) {
            throw new NonRetriableNeuralTextException("tokenizer file " + source
                    + " has no \"model\" object: not a Hugging Face tokenizer.json", null);
        }
        String modelType = string(model, "type", null);
        if (!"WordPiece".equals(modelType)) {
            throw unsupported(source, "model", modelType);
        }
        JsonObject normalizer = object(root, "normalizer");
        if (normalizer == null || !"BertNormalizer".equals(string(normalizer, "type", null))) {
            throw unsupported(source, "normalizer", normalizer == null ? null : string(normalizer, "type", null));
        }
        JsonObject preTokenizer = object(root, "pre_tokenizer");
        if (preTokenizer == null || !"BertPreTokenizer".equals(string(preTokenizer, "type", null))) {
            throw unsupported(source, "pre_tokenizer",
                    preTokenizer == null ? null : string(preTokenizer, "type", null));
        }
        boolean lowercase = bool(normalizer, "lowercase", true);
        // strip_accents null means "as lowercase", as in the native BertNormalizer.
        boolean stripAccents = bool(normalizer, "strip_accents", lowercase);
        BertCharClasses chars = new BertCharClasses(bool(normalizer, "clean_text", true),
                bool(normalizer, "handle_chinese_chars", true), stripAccents, lowercase);

        JsonObject vocabJson = object(model, "vocab");
        if (vocabJson == null) {
            throw new NonRetriableNeuralTextException("tokenizer file " + source
                    + " has a WordPiece model without a \"vocab\" object", null);
        }
        Map<String, Integer> vocab = new HashMap<>(vocabJson.size() * 2);
        for (Map.Entry<String, JsonElement> e : vocabJson.entrySet()) {
            vocab.put(e.getKey(), e.getValue().getAsInt());
        }
        String unknown = string(model, "unk_token", "[UNK]");
        Integer unknownId = vocab.get(unknown);
        if (unknownId == null) {
            throw new UnsupportedTokenizerException("tokenizer file " + source + ": its WordPiece unk_token \""
                    + unknown + "\" is not in its vocabulary");
        }
        String prefix = string(model, "continuing_subword_prefix", "##");
        JsonElement maxChars = model.get("max_input_chars_per_word");
        int maxWordChars = maxChars == null || maxChars.isJsonNull() ? 100 : maxChars.getAsInt();
        return new WordPieceTokenizer(chars, vocab, prefix, unknownId, maxWordChars, addedTokens(root, source));
    }

    private static List<Map.Entry<String, Integer>> addedTokens(JsonObject root, String source) {
        List<Map.Entry<String, Integer>> added = new ArrayList<>();
        JsonElement list = root.get("added_tokens");
        if (list == null || !list.isJsonArray()) {
            return added;
        }
        for (JsonElement element : list.getAsJsonArray()) {
            JsonObject token = element.getAsJsonObject();
            String content = string(token, "content", "");
            for (String flag : List.of("normalized", "single_word", "lstrip", "rstrip")) {
                if (bool(token, flag, false)) {
                    throw new UnsupportedTokenizerException("tokenizer file " + source + ": added token \"" + content
                            + "\" has \"" + flag + "\": true, which only the native tokenizer supports");
                }
            }
            if (!content.isEmpty()) {
                added.add(Map.entry(content, token.get("id").getAsInt()));
            }
        }
        return added;
    }

    private static UnsupportedTokenizerException unsupported(String source, String component, String type) {
        return new UnsupportedTokenizerException("tokenizer file " + source + " has " + component + " "
                + (type == null ? "null" : "\"" + type + "\"") + ": the Java WordPiece tokenizer needs normalizer"
                + " \"BertNormalizer\", pre_tokenizer \"BertPreTokenizer\" and model \"WordPiece\"");
    }

    private static JsonObject object(JsonObject parent, String name) {
        JsonElement e = parent.get(name);
        return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
    }

    private static String string(JsonObject parent, String name, String absent) {
        JsonElement e = parent.get(name);
        return e == null || e.isJsonNull() ? absent : e.getAsString();
    }

    private static boolean bool(JsonObject parent, String name, boolean absent) {
        JsonElement e = parent.get(name);
        return e == null || e.isJsonNull() ? absent : e.getAsBoolean();
    }

    /** One more than the largest id this tokenizer can produce. */
    int vocabSize() {
        return vocabSize;
    }

    /** The token ids of {@code text} without special tokens around it and without truncation. */
    int[] contentIds(String text) {
        Run run = new Run(text.length());
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c < 128 ? addedStartsAscii[c] : addedStartsAboveAscii) {
                int matched = matchAdded(text, i, run);
                if (matched > 0) {
                    i += matched;
                    continue;
                }
            }
            if (c < 128) {
                switch (chars.asciiKind(c)) {
                    case BertCharClasses.WORD -> run.append(chars.asciiChar(c));
                    case BertCharClasses.BREAK -> run.endWord();
                    case BertCharClasses.ISOLATED -> run.isolated(chars.asciiChar(c));
                    default -> {
                        // removed
                    }
                }
                i++;
            } else {
                int cp = Character.codePointAt(text, i);
                BertCharClasses.Mapping m = chars.mapping(cp);
                int[] cps = m.codePoints();
                byte[] kinds = m.kinds();
                for (int k = 0; k < cps.length; k++) {
                    switch (kinds[k]) {
                        case BertCharClasses.WORD -> run.append(cps[k]);
                        case BertCharClasses.BREAK -> run.endWord();
                        default -> run.isolated(cps[k]);
                    }
                }
                i += Character.charCount(cp);
            }
        }
        run.endWord();
        return Arrays.copyOf(run.ids, run.count);
    }

    /** Emits the longest added token at {@code at}, if any, and returns its length (0 if none). */
    private int matchAdded(String text, int at, Run run) {
        for (int k = 0; k < addedTokens.length; k++) {
            if (text.startsWith(addedTokens[k], at)) {
                run.endWord();
                run.emit(addedIds[k]);
                return addedTokens[k].length();
            }
        }
        return 0;
    }

    /** The state of one {@link #contentIds} call: the word being built and the ids so far. */
    private final class Run {
        int[] ids;
        int count;
        char[] word = new char[64];
        int wordLength;
        int wordCodePoints;

        Run(int textLength) {
            ids = new int[Math.max(16, textLength / 4)];
        }

        void append(char c) {
            if (wordLength == word.length) {
                word = Arrays.copyOf(word, wordLength * 2);
            }
            word[wordLength++] = c;
            wordCodePoints++;
        }

        void append(int cp) {
            if (Character.isBmpCodePoint(cp)) {
                append((char) cp);
            } else {
                append(Character.highSurrogate(cp));
                append(Character.lowSurrogate(cp));
                wordCodePoints--;
            }
        }

        void isolated(int cp) {
            endWord();
            append(cp);
            endWord();
        }

        void emit(int id) {
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
            }
            ids[count++] = id;
        }

        /** Splits the current word into word pieces, longest vocabulary entry first. */
        void endWord() {
            int length = wordLength;
            if (length == 0) {
                return;
            }
            wordLength = 0;
            if (wordCodePoints > maxWordChars) {
                wordCodePoints = 0;
                emit(unknownId);
                return;
            }
            wordCodePoints = 0;
            int mark = count;
            int start = 0;
            while (start < length) {
                int node = start == 0 ? WordPieceTrie.ROOT : continuationRoot;
                int best = -1;
                int bestEnd = start;
                for (int i = start; node != WordPieceTrie.NONE && i < length; ) {
                    node = vocabulary.child(node, word[i++]);
                    if (node != WordPieceTrie.NONE) {
                        int id = vocabulary.id(node);
                        if (id >= 0) {
                            best = id;
                            bestEnd = i;
                        }
                    }
                }
                if (best < 0) {
                    // No piece covers this part: the whole word is one unknown token.
                    count = mark;
                    emit(unknownId);
                    return;
                }
                emit(best);
                start = bestEnd;
            }
        }
    }
}
