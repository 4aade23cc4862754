package dev.neuraltext.ingest;

import dev.neuraltext.chunk.Chunker;
import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SyntaxChunkerProvider} found on the class path, if any, with the chunker it made. When none is found (or
 * it fails to load), files of {@link DirectoryIngestor#SYNTAX_LANGUAGES} fall back to plain text and the first such
 * file logs one warning saying how to get syntax chunks. Safe for concurrent use.
 */
final class SyntaxChunkers {

    private static final Logger LOG = LoggerFactory.getLogger(SyntaxChunkers.class);

    private final SyntaxChunkerProvider provider;
    private final Chunker chunker;
    private final String missingCause;
    private final AtomicBoolean warned = new AtomicBoolean();

    private SyntaxChunkers(SyntaxChunkerProvider provider, Chunker chunker, String missingCause) {
        this.provider = provider;
        this.chunker = chunker;
        this.missingCause = missingCause;
    }

    /** The first provider {@link ServiceLoader} finds, its chunker falling back to {@code fallback}. */
    static SyntaxChunkers load(PlainTextChunker fallback) {
        try {
            Iterator<SyntaxChunkerProvider> it = ServiceLoader.load(SyntaxChunkerProvider.class,
                    SyntaxChunkers.class.getClassLoader()).iterator();
            if (!it.hasNext()) {
                return new SyntaxChunkers(null, null, "no syntax chunker on the class path (add neural-text-treesitter)");
            }
            SyntaxChunkerProvider p = it.next();
            return new SyntaxChunkers(p, p.create(fallback), "");
        } catch (ServiceConfigurationError | LinkageError e) {
            return new SyntaxChunkers(null, null, "the syntax chunker failed to load (" + e + ")");
        }
    }

    /** The syntax chunker for {@code language}, or empty (plain text) when it has none. */
    Optional<Chunker> chunkerFor(String language) {
        if (provider != null && provider.languages().contains(language)) {
            return Optional.of(chunker);
        }
        if (DirectoryIngestor.SYNTAX_LANGUAGES.contains(language) && warned.compareAndSet(false, true)) {
            LOG.warn("{}: {} files and the other languages without a syntax chunker are indexed as plain-text windows",
                    provider == null ? missingCause : "the syntax chunker does not handle " + language, language);
        }
        return Optional.empty();
    }

    /** The provider's version for index manifests, {@code none} without one. */
    String version() {
        return provider == null ? "none" : provider.version();
    }
}
