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

    private static final int READ_BUFFER = 64 * 1024;

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
     * Parses {@code text} (read as UTF-16LE, so that byte offsets / 2 are {@code String} indices).
     *
     * @param budgetNanos parsing is cancelled after this long
     * @return the tree, or null when the budget ran out
     */
    static TSTree parse(TSLanguage language, String text, long budgetNanos) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_16LE);
        TSParser parser = new TSParser();
        if (!parser.setLanguage(language)) {
            throw new GrammarUnavailableException("tree-sitter refused grammar " + language.getClass().getName());
        }
        TSReader reader = (buffer, offset, position) -> {
            if (offset >= bytes.length) {
                return 0;
            }
            int n = Math.min(buffer.length, bytes.length - offset);
            System.arraycopy(bytes, offset, buffer, 0, n);
            return n;
        };
        long deadline = System.nanoTime() + budgetNanos;
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
