package dev.neuraltext.treesitter;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.ingest.PlainTextChunker;
import dev.neuraltext.internal.ControlChars;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.treesitter.TSLanguage;

/**
 * Chunks source files by their tree-sitter syntax tree: one chunk per definition (function, method, constructor,
 * class, interface, trait, struct, enum, module), with metadata {@code symbol} ({@code Outer.inner}),
 * {@code qualifiedName}, {@code symbolType}, {@code symbolKind}, {@code language}, {@code startLine} and
 * {@code endLine} of the code, the doc comment kept apart from the code (chunk text: symbol line, doc comment, code;
 * BM25 fields {@code name}, {@code signature}, {@code doc}, {@code body}). A type's chunk shows its nested
 * definitions by their first line; each nested definition is a chunk of its own. A definition longer than
 * {@link #DEFAULT_MAX_CHARS} characters is cut into parts at statement starts. What lies outside any definition
 * (imports, top-level statements) is one header chunk per file, id {@code path#{header}}. Chunk ids are
 * {@code path#symbol}, {@code ~2}, {@code ~3} for repeats, {@code /2}, {@code /3} for parts.
 *
 * <p>The languages and their rules are data ({@code syntax-rules.yaml}, keyed by the language ids of core's
 * {@code LanguageTable}): see {@link #languages()}. A C file ({@code .h}) holding C++ (a {@code namespace},
 * {@code template}, {@code class} or {@code ::}) is read as C++, and its chunks say {@code language = cpp}. The
 * language of a
 * document is its {@code language} metadata. A file is indexed by the fallback {@link PlainTextChunker} instead, with
 * one warning naming it and the cause, when its language has no grammar here, the grammar or tree-sitter's native
 * library does not load on this platform, parsing runs past {@link #DEFAULT_PARSE_BUDGET_MILLIS} ms, the file is
 * larger than {@link #DEFAULT_MAX_BYTES} or has a line longer than {@link #MAX_LINE_CHARS} characters (minified
 * code), or anything else fails while chunking it: no file ends a run.
 *
 * <p>Safe for concurrent use (a parser is made per file).
 */
public final class SyntaxTreeChunker implements Chunker {

    private static final Logger LOG = LoggerFactory.getLogger(SyntaxTreeChunker.class);

    /** Chunks longer than this many characters are cut into parts at statement starts: 4,000. */
    public static final int DEFAULT_MAX_CHARS = 4000;
    /** Parsing one file is cancelled after this long: 5,000 ms. */
    public static final long DEFAULT_PARSE_BUDGET_MILLIS = 5000;
    /** Larger files are indexed as plain text: 2 MiB of characters. */
    public static final int DEFAULT_MAX_BYTES = 2 << 20;
    /** A file with a longer line (minified code) is indexed as plain text: 20,000 characters. */
    public static final int MAX_LINE_CHARS = 20_000;

    private static final Map<String, LanguageRules> RULES = LanguageRules.load();
    private static final Grammars GRAMMARS = new Grammars();

    private final PlainTextChunker fallback;

    private SyntaxTreeChunker(PlainTextChunker fallback) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /** A chunker falling back to {@code fallback} for files it cannot chunk. */
    public static SyntaxTreeChunker create(PlainTextChunker fallback) {
        return new SyntaxTreeChunker(fallback);
    }

    /** A chunker falling back to {@link PlainTextChunker#create()}. */
    public static SyntaxTreeChunker create() {
        return create(PlainTextChunker.create());
    }

    /**
     * The languages with rules here, named as core's {@code LanguageTable} names them (exactly its languages of
     * {@code chunker: syntax}): {@code kotlin},
     * {@code scala}, {@code python}, {@code typescript}, {@code tsx}, {@code javascript}, {@code go}, {@code rust},
     * {@code c}, {@code cpp}, {@code csharp}, {@code ruby}, {@code php}, {@code swift}, {@code elixir},
     * {@code haskell}, {@code lua}, {@code shell}.
     */
    public static Set<String> languages() {
        return RULES.keySet();
    }

    @Override
    public List<ChunkInput> chunk(ExtractionResult document) {
        Objects.requireNonNull(document, "document");
        String language = document.metadata().getOrDefault(ChunkMetadata.LANGUAGE, "");
        try {
            return chunkOrExplain(document, language);
        } catch (Grammars.GrammarUnavailableException e) {
            return fallback(document, e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return fallback(document, "the syntax-tree chunker failed: " + e);
        }
    }

    private List<ChunkInput> chunkOrExplain(ExtractionResult document, String language) {
        LanguageRules declared = RULES.get(language);
        if (declared == null) {
            return fallback(document, "no syntax rules for language '" + language + "'");
        }
        String text = document.text();
        LanguageRules rules = declared.forText(text, RULES);
        if (text.length() > DEFAULT_MAX_BYTES) {
            return fallback(document, text.length() + " characters, more than " + DEFAULT_MAX_BYTES);
        }
        SourceLines lines = new SourceLines(text);
        int longest = lines.longestLine();
        if (longest > MAX_LINE_CHARS) {
            return fallback(document, "a line of " + longest + " characters (minified?)");
        }
        TSLanguage grammar = GRAMMARS.language(rules.grammar());
        ParsedSource parsed = Grammars.parse(grammar, text,
                TimeUnit.MILLISECONDS.toNanos(DEFAULT_PARSE_BUDGET_MILLIS));
        if (parsed == null) {
            return fallback(document, "parsing took longer than " + DEFAULT_PARSE_BUDGET_MILLIS + " ms");
        }
        DefinitionFinder.Found found = DefinitionFinder.find(rules, parsed, text, lines);
        return new ChunkAssembler(document, rules.language(), lines, found.pkg(), DEFAULT_MAX_CHARS)
                .assemble(found.definitions(), found.topLevelStarts(), found.reExports());
    }

    private List<ChunkInput> fallback(ExtractionResult document, String cause) {
        LOG.warn("{}: {}; indexed as plain-text windows", ControlChars.escapeLine(document.source()),
                ControlChars.escapeLine(cause));
        return fallback.chunk(document);
    }
}
