package dev.neuraltext.ingest;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.internal.ControlChars;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Chunks Markdown by heading section (commonmark): each chunk is one section, its text starting with the heading path
 * ({@code Guide > Install > Linux}) as context, then the section as written. Sections longer than
 * {@code maxChars} (default {@value #DEFAULT_MAX_CHARS}) are split at line boundaries into parts overlapping by about
 * {@code overlapChars} (default {@value #DEFAULT_OVERLAP_CHARS}). Text before the first heading is its own chunk.
 *
 * <p>YAML front matter ({@code ---} ... {@code ---} at the top, parsed with SnakeYAML's safe constructor) becomes
 * metadata: scalars as metadata ({@code title: Retry} → {@code title}), lists as list metadata
 * ({@code tags: [a, b]} → {@code listMetadata("tags")}); keys the chunker writes itself ({@code path},
 * {@code type}, {@code symbol}, ...) are not overridden. Malformed front matter is logged and indexed once, as text, in
 * its own chunk. Heading texts are cut at {@value #MAX_HEADING_CHARS} characters, so heading paths stay bounded.
 *
 * <p>Chunk ids are {@code path#Heading > Sub} ({@code ~2} for repeated headings, {@code #part2} for later parts of
 * a long section). Immutable and safe for concurrent use.
 */
public final class MarkdownChunker implements Chunker {

    private static final Logger LOG = LoggerFactory.getLogger(MarkdownChunker.class);

    /** Default maximum chunk size in characters. */
    public static final int DEFAULT_MAX_CHARS = 2000;
    /** Default overlap between the parts of a long section, in characters. */
    public static final int DEFAULT_OVERLAP_CHARS = 200;

    private static final Set<String> RESERVED = Set.of(ChunkMetadata.PATH, ChunkMetadata.LANGUAGE,
            ChunkMetadata.SYMBOL, ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.START_LINE, ChunkMetadata.END_LINE,
            ChunkMetadata.TYPE, ChunkMetadata.SECTION, ChunkMetadata.CLASS_NAME, ChunkMetadata.PACKAGE,
            ChunkMetadata.SIGNATURE);

    private final int maxChars;
    private final int overlapChars;
    private final Parser parser;

    private MarkdownChunker(int maxChars, int overlapChars) {
        if (maxChars < 100) {
            throw new IllegalArgumentException("maxChars must be >= 100, got " + maxChars);
        }
        if (overlapChars < 0 || overlapChars >= maxChars / 2) {
            throw new IllegalArgumentException("overlapChars must be in [0, maxChars / 2) = [0, " + (maxChars / 2)
                    + "), got " + overlapChars);
        }
        this.maxChars = maxChars;
        this.overlapChars = overlapChars;
        this.parser = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();
    }

    /** Defaults: {@value #DEFAULT_MAX_CHARS} characters per chunk, {@value #DEFAULT_OVERLAP_CHARS} overlap. */
    public static MarkdownChunker create() {
        return new MarkdownChunker(DEFAULT_MAX_CHARS, DEFAULT_OVERLAP_CHARS);
    }

    /** Chunks of at most {@code maxChars} (at least 100), overlapping by {@code overlapChars} (below half). */
    public static MarkdownChunker of(int maxChars, int overlapChars) {
        return new MarkdownChunker(maxChars, overlapChars);
    }

    /** Longest heading text kept in a heading path, in characters; longer headings are cut with an ellipsis. */
    static final int MAX_HEADING_CHARS = 120;

    /**
     * Front matter split from the body; {@code bodyLineOffset} lines precede the body. {@code malformed} is the raw
     * front-matter block (delimiters included) when it did not parse, else null.
     */
    record FrontMatter(Map<String, String> metadata, Map<String, List<String>> listMetadata, String body,
            int bodyLineOffset, String malformed) {
        FrontMatter(Map<String, String> metadata, Map<String, List<String>> listMetadata, String body,
                int bodyLineOffset) {
            this(metadata, listMetadata, body, bodyLineOffset, null);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Parses on a thread with a generous stack: a file nested deeper than the parser can take is indexed as plain
     * text with a warning naming it.
     */
    @Override
    public List<ChunkInput> chunk(ExtractionResult document) {
        java.util.Objects.requireNonNull(document, "document");
        return ParserThread.call(document.source(), () -> chunkParsed(document)).orElseGet(() -> {
            LOG.warn("{}: nested too deeply for the Markdown parser, indexed as plain text",
                    ControlChars.escapeLine(document.source()));
            Map<String, String> meta = new LinkedHashMap<>(document.metadata());
            meta.put(ChunkMetadata.LANGUAGE, "markdown");
            meta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);
            return PlainTextChunker.create().chunk(new ExtractionResult(document.source(), document.text(), meta,
                    document.listMetadata()));
        });
    }

    private List<ChunkInput> chunkParsed(ExtractionResult document) {
        String path = ChunkIds.documentKey(document);
        FrontMatter fm = frontMatter(path, document.text());
        Map<String, String> baseMeta = new LinkedHashMap<>(document.metadata());
        Map<String, List<String>> listMeta = new LinkedHashMap<>(document.listMetadata());
        fm.metadata().forEach((k, v) -> {
            if (!RESERVED.contains(k) && !listMeta.containsKey(k)) {
                baseMeta.putIfAbsent(k, v);
            }
        });
        fm.listMetadata().forEach((k, v) -> {
            if (!RESERVED.contains(k) && !baseMeta.containsKey(k)) {
                listMeta.putIfAbsent(k, v);
            }
        });
        baseMeta.putIfAbsent(ChunkMetadata.PATH, path);
        baseMeta.put(ChunkMetadata.LANGUAGE, "markdown");
        baseMeta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);

        SourceText src = new SourceText(fm.body());
        Node root = parser.parse(fm.body());
        List<int[]> headings = new ArrayList<>(); // {lineIndex0, level}
        List<String> headingTexts = new ArrayList<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof Heading h && !h.getSourceSpans().isEmpty()) {
                SourceSpan span = h.getSourceSpans().get(0);
                headings.add(new int[] {span.getLineIndex(), h.getLevel()});
                headingTexts.add(headingText(h));
            }
        }
        String fileName = path.substring(path.lastIndexOf('/') + 1);
        String title = fm.metadata().getOrDefault("title", fileName);
        List<ChunkInput> out = new ArrayList<>();
        ChunkIds ids = new ChunkIds();
        if (fm.malformed() != null) {
            // kept once, as text, where it stands: not parsed as Markdown, where its closing "---" would turn it into
            // a heading repeated in every section's path
            SourceText raw = new SourceText(fm.malformed());
            emitSection(out, ids, path, baseMeta, listMeta, "front matter", title, "_frontmatter", raw, 1,
                    raw.lineCount(), 0);
        }
        int lineCount = src.lineCount();
        int firstHeading = headings.isEmpty() ? lineCount : headings.get(0)[0];
        if (firstHeading > 0) {
            String pre = src.lines(1, firstHeading);
            if (!pre.isBlank()) {
                emitSection(out, ids, path, baseMeta, listMeta, title, title, "_preamble", src, 1, firstHeading,
                        fm.bodyLineOffset());
            }
        }
        String[] stack = new String[7];
        for (int i = 0; i < headings.size(); i++) {
            int level = headings.get(i)[1];
            stack[level] = headingTexts.get(i);
            for (int l = level + 1; l < stack.length; l++) {
                stack[l] = null;
            }
            List<String> pathParts = new ArrayList<>();
            for (int l = 1; l <= level; l++) {
                if (stack[l] != null) {
                    pathParts.add(stack[l]);
                }
            }
            String sectionPath = String.join(" > ", pathParts);
            int from = headings.get(i)[0] + 1;
            int to = i + 1 < headings.size() ? headings.get(i + 1)[0] : lineCount;
            emitSection(out, ids, path, baseMeta, listMeta, headingTexts.get(i), sectionPath, sectionPath, src,
                    from, to, fm.bodyLineOffset());
        }
        if (out.isEmpty() && !document.text().isBlank()) {
            // front matter and nothing else: keep the file findable, by its text and by its metadata
            SourceText whole = new SourceText(document.text());
            emitSection(out, ids, path, baseMeta, listMeta, title, title, "_preamble", whole, 1, whole.lineCount(), 0);
        }
        return out;
    }

    private void emitSection(List<ChunkInput> out, ChunkIds ids, String path, Map<String, String> baseMeta,
            Map<String, List<String>> listMeta, String heading, String sectionPath, String idKey, SourceText src,
            int fromLine, int toLine, int lineOffset) {
        // trim trailing blank lines
        while (toLine > fromLine && src.line(toLine).isBlank()) {
            toLine--;
        }
        List<int[]> parts = split(src, fromLine, toLine);
        String baseId = ids.unique(path + "#" + idKey);
        for (int p = 0; p < parts.size(); p++) {
            int a = parts.get(p)[0];
            int b = parts.get(p)[1];
            String body = src.lines(a, b);
            Map<String, String> meta = new LinkedHashMap<>(baseMeta);
            meta.put(ChunkMetadata.SYMBOL, heading);
            meta.put(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_SECTION);
            meta.put(ChunkMetadata.SECTION, sectionPath);
            meta.put(ChunkMetadata.START_LINE, Integer.toString(a + lineOffset));
            meta.put(ChunkMetadata.END_LINE, Integer.toString(b + lineOffset));
            for (String key : listMeta.keySet()) {
                meta.remove(key);
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put(ChunkMetadata.FIELD_NAME, sectionPath);
            fields.put(ChunkMetadata.FIELD_BODY, body);
            String id = p == 0 ? baseId : baseId + "#part" + (p + 1);
            out.add(new ChunkInput(id, sectionPath + "\n" + body, meta, listMeta, fields));
        }
    }

    /** Line ranges of at most about maxChars each, the next starting so that it repeats ~overlapChars. */
    private List<int[]> split(SourceText src, int from, int to) {
        List<int[]> parts = new ArrayList<>();
        int start = from;
        while (start <= to) {
            int size = 0;
            int end = start;
            while (end <= to) {
                int len = src.line(end).length() + 1;
                if (size + len > maxChars && end > start) {
                    break;
                }
                size += len;
                end++;
            }
            int last = end - 1;
            parts.add(new int[] {start, last});
            if (last >= to) {
                break;
            }
            int back = 0;
            int next = last + 1;
            while (next - 1 > start + 0 && back + src.line(next - 1).length() + 1 <= overlapChars) {
                back += src.line(next - 1).length() + 1;
                next--;
            }
            start = Math.max(next, start + 1);
        }
        return parts;
    }

    private static String headingText(Heading h) {
        StringBuilder sb = new StringBuilder();
        h.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                sb.append(text.getLiteral());
            }

            @Override
            public void visit(Code code) {
                sb.append(code.getLiteral());
            }
        });
        String s = sb.toString().strip();
        if (s.length() > MAX_HEADING_CHARS) {
            s = s.substring(0, MAX_HEADING_CHARS - 1).strip() + "\u2026";
        }
        return s.isEmpty() ? "(untitled)" : s;
    }

    /** Splits YAML front matter from the text; returns no metadata when there is none or it is malformed. */
    static FrontMatter frontMatter(String source, String text) {
        List<String> lines = SourceText.splitLines(text);
        if (lines.isEmpty() || !lines.get(0).strip().equals("---")) {
            return new FrontMatter(Map.of(), Map.of(), text, 0);
        }
        int close = -1;
        for (int i = 1; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.equals("---") || t.equals("...")) {
                close = i;
                break;
            }
        }
        if (close < 0) {
            return new FrontMatter(Map.of(), Map.of(), text, 0);
        }
        String yaml = String.join("\n", lines.subList(1, close));
        String body = String.join("\n", lines.subList(close + 1, lines.size()));
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, List<String>> listMeta = new LinkedHashMap<>();
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(10);
            Object loaded = new Yaml(new SafeConstructor(options)).load(yaml);
            if (loaded instanceof Map<?, ?> map) {
                flatten("", map, meta, listMeta);
            } else {
                // "---" opening the text was a thematic break, not front matter: keep everything as Markdown
                return new FrontMatter(Map.of(), Map.of(), text, 0);
            }
        } catch (RuntimeException e) {
            String problem = (e.getMessage() == null ? e.toString() : e.getMessage()).replace('\n', ' ');
            LOG.warn("{}: malformed YAML front matter kept as text, not metadata ({})", ControlChars.escapeLine(source),
                    ControlChars.escapeLine(problem.length() > 200 ? problem.substring(0, 200) + "..." : problem));
            return new FrontMatter(Map.of(), Map.of(), body, close + 1,
                    String.join("\n", lines.subList(0, close + 1)));
        }
        return new FrontMatter(meta, listMeta, body, close + 1);
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> meta,
            Map<String, List<String>> listMeta) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                continue;
            }
            String key = prefix + e.getKey();
            if (key.isBlank()) {
                continue;
            }
            Object v = e.getValue();
            if (v instanceof Map<?, ?> nested) {
                flatten(key + ".", nested, meta, listMeta);
            } else if (v instanceof List<?> list) {
                List<String> values = new ArrayList<>();
                for (Object o : list) {
                    if (o != null && !(o instanceof Map) && !(o instanceof List)) {
                        values.add(scalar(o));
                    }
                }
                listMeta.put(key, values);
            } else {
                meta.put(key, scalar(v));
            }
        }
    }

    private static String scalar(Object o) {
        if (o instanceof Date d) {
            return DateTimeFormatter.ISO_INSTANT.format(d.toInstant()).replace("T00:00:00Z", "");
        }
        return o.toString();
    }

    @Override
    public String toString() {
        return "MarkdownChunker[maxChars=" + maxChars + ", overlapChars=" + overlapChars + "]";
    }
}
