package dev.neuraltext.treesitter;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.treesitter.TSInputEncoding;
import org.treesitter.TSLanguage;
import org.treesitter.TSParser;
import org.treesitter.TSReader;
import org.treesitter.TSTree;

/**
 * Loads tree-sitter grammars by class name (once each; a grammar or native library that fails to load is remembered
 * with its cause) and parses text with a time budget. Safe for concurrent use: a parser is made per call.
 */
final class Grammars {

    private static final int READ_BUFFER = 4096; // tree-sitter reads ~1,000 times a file; a small copy each time is cheaper

    private final Map<String, Object> loaded = new ConcurrentHashMap<>(); // TSLanguage or the failure's description

    /**
     * The grammar of class {@code className}.
     *
     * @throws GrammarUnavailableException if the class or its native library cannot be loaded, or its ABI is not one
     *                                     the tree-sitter core reads
     */
    TSLanguage language(String className) {
        Object o = loaded.computeIfAbsent(className, Grammars::load);
        if (o instanceof TSLanguage l) {
            return l;
        }
        throw new GrammarUnavailableException((String) o);
    }

    private static Object load(String className) {
        try {
            TSLanguage language = (TSLanguage) Class.forName(className).getConstructor().newInstance();
            int abi = language.abiVersion();
            if (abi < TSParser.TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TSParser.TREE_SITTER_LANGUAGE_VERSION) {
                return "grammar " + className + " has ABI " + abi + ", tree-sitter reads "
                        + TSParser.TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION + ".." + TSParser.TREE_SITTER_LANGUAGE_VERSION;
            }
            return language;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ite && ite.getCause() != null
                    ? ite.getCause() : e;
            return "grammar " + className + " does not load on " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ": " + cause;
        }
    }

    /**
     * Parses {@code text} (read as UTF-16LE, so that byte offsets / 2 are {@code String} indices). The Lua grammar
     * reads it with {@link LuaScannerReset}'s comment in front, as its scanner needs.
     *
     * @param budgetNanos parsing (all attempts together) is cancelled after this long
     * @return the tree, or null when the budget ran out
     * @throws IllegalStateException if the Lua grammar's scanner did not take the reset in
     *                               {@value LuaScannerReset#MAX_ATTEMPTS} parses
     */
    static ParsedSource parse(TSLanguage language, String text, long budgetNanos) {
        long deadline = System.nanoTime() + budgetNanos;
        if (!LuaScannerReset.appliesTo(language)) {
            TSTree tree = parseOnce(language, text, deadline);
            return tree == null ? null : ParsedSource.of(tree);
        }
        int at = LuaScannerReset.insertionPoint(text);
        String withReset = LuaScannerReset.withResetComment(text, at);
        for (int attempt = 0; attempt < LuaScannerReset.MAX_ATTEMPTS; attempt++) {
            TSTree tree = parseOnce(language, withReset, deadline);
            if (tree == null) {
                return null;
            }
            ParsedSource parsed = new ParsedSource(tree, at, LuaScannerReset.RESET_COMMENT.length());
            if (LuaScannerReset.tookEffect(parsed)) {
                return parsed;
            }
        }
        throw new IllegalStateException("the Lua grammar's scanner started from stale native memory in "
                + LuaScannerReset.MAX_ATTEMPTS + " parses in a row (tree-sitter-lua 2.1.3 leaves its scanner state "
                + "uninitialized), so no tree of this file can be trusted; if this repeats, use a tree-sitter-lua "
                + "build whose scanner initializes its state");
    }

    private static TSTree parseOnce(TSLanguage language, String text, long deadline) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_16LE);
        TSParser parser = new TSParser();
        if (!parser.setLanguage(language)) {
            throw new GrammarUnavailableException("tree-sitter refused grammar " + language.getClass().getName());
        }
        TSReader reader = (buffer, offset, position) -> {
            if (offset >= bytes.length) {
                return 0;
            }
            int n = Math.min(buffer.length, bytes.length - offset) & ~1;
            if (offset + n < bytes.length && n >= 4 && Character.isHighSurrogate(
                    (char) ((bytes[offset + n - 2] & 0xff) | (bytes[offset + n - 1] & 0xff) << 8))) {
                n -= 2; // a piece ends on a whole character: the pair's second half starts the next piece
            }
            System.arraycopy(bytes, offset, buffer, 0, n);
            return n;
        };
        return parser.parseWithOptions(new byte[READ_BUFFER], null, reader, TSInputEncoding.TSInputEncodingUTF16LE,
                state -> System.nanoTime() - deadline > 0);
    }

    /** A grammar that cannot be used here; the message says which and why. */
    static final class GrammarUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GrammarUnavailableException(String message) {
            super(message);
        }
    }
}
