package dev.neuraltext.cli.eval;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chunk {@code neural-text index} would make of the source a BEIR document was cut from, so that the eval scores
 * every leg on what the product indexes. The decision is the product's: the language of the document's file
 * ({@link DirectoryIngestor#languageOf(String)} on metadata {@code path}, else on the id before {@code #}), never the
 * dataset.
 *
 * <ul>
 *   <li><b>Markdown</b> (as {@code MarkdownChunker}): text = heading path + newline + section body; BM25 field
 *       {@code name} = the heading path (metadata {@value #HEADING_PATH}, else the title), {@code body} = the body;
 *       metadata {@code section} = the heading path, {@code symbol} = the title, {@code symbolType} = section,
 *       {@code type} = doc.</li>
 *   <li><b>Java</b> (as {@code JavaSourceChunker}): a member's text = symbol + newline + source, a type's text =
 *       qualified name and kind ({@code org.a.B (class)}) + newline + source; BM25 fields {@code name} = the title
 *       (symbol), {@code signature} = the declaration (the source up to its body, a member's annotations left out),
 *       {@code body} = the source (a type's member list without its header and braces); metadata {@code symbolType}
 *       (from {@code kind}), {@code signature}, {@code type} = code. The dataset has removed Javadoc, so there is no
 *       {@code doc} field.</li>
 *   <li>Anything else: {@link EvalDocument#toChunkInput()} (text {@code title + "\n" + text}, name = title, body =
 *       text).</li>
 * </ul>
 *
 * <p>Long Markdown sections are not split into parts as {@code MarkdownChunker} would: a dataset document is one
 * judged unit. Stateless; public for the harness's users (the never-shipped neural-text-lab module).
 */
public final class IndexedChunk {

    /** The BEIR metadata key of a Markdown section's heading path ({@code Page > Section > Subsection}). */
    static final String HEADING_PATH = "headingPath";
    /** The BEIR metadata key of a Java document's kind ({@code type}, {@code method}, {@code constructor}). */
    static final String KIND = "kind";

    private static final Pattern LEADING_ANNOTATION = Pattern.compile("^@[\\w.]+(\\([^)]*\\))?\\s*");
    private static final Pattern TYPE_KIND = Pattern.compile("(@interface|\\binterface|\\benum|\\brecord)\\b");

    private IndexedChunk() {
    }

    /** The chunk the product would index for {@code doc}. */
    public static ChunkInput of(EvalDocument doc) {
        String path = doc.metadata().getOrDefault(ChunkMetadata.PATH, idPath(doc.id()));
        String file = path.substring(path.lastIndexOf('/') + 1);
        String language = file.isEmpty() ? null : DirectoryIngestor.languageOf(file);
        if ("markdown".equals(language)) {
            return markdown(doc);
        }
        if ("java".equals(language)) {
            return java(doc);
        }
        return doc.toChunkInput();
    }

    /** The path part of a BEIR id ({@code path#Symbol}): the id before its first {@code #}, or the whole id. */
    public static String idPath(String id) {
        int hash = id.indexOf('#');
        return hash < 0 ? id : id.substring(0, hash);
    }

    /**
     * Indexes {@code docs} into {@code retriever} as the eval does: each as {@link #of}, {@value #BATCH} to a call,
     * {@code progress} told after each batch; returns the seconds it took.
     */
    public static double indexAll(HybridCaseRetriever retriever, List<EvalDocument> docs, ProgressBar progress) {
        progress.start("indexing neural-text", docs.size());
        long t0 = System.nanoTime();
        for (int from = 0; from < docs.size(); from += BATCH) {
            List<ChunkInput> chunks = new ArrayList<>();
            for (int i = from; i < Math.min(docs.size(), from + BATCH); i++) {
                chunks.add(of(docs.get(i)));
            }
            retriever.index(chunks);
            progress.update(Math.min(docs.size(), from + BATCH));
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        progress.finish();
        return secs;
    }

    /** Documents per {@link HybridCaseRetriever#index} call of {@link #indexAll}. */
    static final int BATCH = 256;

    private static ChunkInput markdown(EvalDocument doc) {
        String headingPath = doc.metadata().get(HEADING_PATH);
        String section = headingPath == null || headingPath.isBlank() ? doc.title() : headingPath.strip();
        Map<String, String> meta = new LinkedHashMap<>(doc.metadata());
        meta.put(ChunkMetadata.LANGUAGE, "markdown");
        meta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);
        meta.put(ChunkMetadata.SYMBOL, doc.title());
        meta.put(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_SECTION);
        meta.put(ChunkMetadata.SECTION, section);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(ChunkMetadata.FIELD_NAME, section);
        fields.put(ChunkMetadata.FIELD_BODY, doc.text());
        return new ChunkInput(doc.id(), section + "\n" + doc.text(), meta, Map.of(), fields);
    }

    private static ChunkInput java(EvalDocument doc) {
        String kind = doc.metadata().getOrDefault(KIND, "").toLowerCase(Locale.ROOT);
        boolean type = kind.equals(ChunkMetadata.SYMBOL_TYPE_TYPE);
        String code = doc.text();
        String symbol = doc.metadata().getOrDefault(ChunkMetadata.SYMBOL, doc.title());
        String signature = declaration(code, !type);
        Map<String, String> meta = new LinkedHashMap<>(doc.metadata());
        meta.put(ChunkMetadata.LANGUAGE, "java");
        meta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE);
        if (!kind.isEmpty()) {
            meta.put(ChunkMetadata.SYMBOL_TYPE, kind);
        }
        meta.put(ChunkMetadata.SIGNATURE, signature);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(ChunkMetadata.FIELD_NAME, doc.title());
        fields.put(ChunkMetadata.FIELD_SIGNATURE, signature);
        String text;
        if (type) {
            String pkg = doc.metadata().getOrDefault(ChunkMetadata.PACKAGE, "");
            text = (pkg.isEmpty() ? symbol : pkg + "." + symbol) + " (" + typeKind(signature) + ")\n" + code;
            fields.put(ChunkMetadata.FIELD_BODY, members(code));
        } else {
            text = doc.title() + "\n" + code;
            fields.put(ChunkMetadata.FIELD_BODY, code);
        }
        return new ChunkInput(doc.id(), text, meta, Map.of(), fields);
    }

    /**
     * The declaration: the source up to its body, whitespace collapsed, leading annotations dropped when
     * {@code dropAnnotations} (the product's member signature has none).
     */
    static String declaration(String code, boolean dropAnnotations) {
        String decl = code.substring(0, bodyStart(code)).replaceAll("\\s+", " ").strip();
        if (dropAnnotations) {
            for (Matcher m = LEADING_ANNOTATION.matcher(decl); m.find(); m = LEADING_ANNOTATION.matcher(decl)) {
                decl = decl.substring(m.end());
            }
        }
        return decl;
    }

    /** The index of the first opening brace or semicolon outside parentheses, or the length when there is none. */
    private static int bodyStart(String code) {
        int depth = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && (c == '{' || c == ';')) {
                return i;
            }
        }
        return code.length();
    }

    private static String typeKind(String header) {
        Matcher m = TYPE_KIND.matcher(header);
        if (!m.find()) {
            return "class";
        }
        return m.group(1).equals("@interface") ? "annotation" : m.group(1);
    }

    /** A type's source without its header and the braces around its members. */
    private static String members(String code) {
        int open = bodyStart(code);
        int close = code.lastIndexOf('}');
        if (open >= code.length() || code.charAt(open) != '{' || close <= open) {
            return code;
        }
        return code.substring(open + 1, close).strip();
    }
}
