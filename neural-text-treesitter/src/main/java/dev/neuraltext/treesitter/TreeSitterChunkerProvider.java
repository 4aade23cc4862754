package dev.neuraltext.treesitter;

import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.ingest.PlainTextChunker;
import dev.neuraltext.ingest.SyntaxChunkerProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * The {@link SyntaxChunkerProvider} of this module, registered in {@code META-INF/services}: core's
 * {@code DirectoryIngestor} uses {@link SyntaxTreeChunker} for its languages when this jar is on the class path.
 */
public final class TreeSitterChunkerProvider implements SyntaxChunkerProvider {

    /**
     * Bumped when the chunking code changes what it emits (v2: headers' re-exports, Lua parsed from a reset scanner);
     * the rules' hash is added to it.
     */
    private static final String CODE_VERSION = "treesitter-v2";

    @Override
    public Set<String> languages() {
        return SyntaxTreeChunker.languages();
    }

    @Override
    public Chunker create(PlainTextChunker fallback) {
        return SyntaxTreeChunker.create(fallback);
    }

    /** {@code treesitter-v2 rules=<first 12 hex digits of the rules' SHA-256>}. */
    @Override
    public String version() {
        try (InputStream in = LanguageRules.class.getResourceAsStream(LanguageRules.RESOURCE)) {
            byte[] bytes = in == null ? new byte[0] : in.readAllBytes();
            String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            return CODE_VERSION + " rules=" + hash.substring(0, 12);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LanguageRules.RESOURCE, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every JVM", e);
        }
    }
}
