package dev.neuraltext.treesitter;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns a file's {@link Definition}s into chunks: one per definition (a container's nested definitions shown by
 * their first line, as the Java chunker shows members), the doc comment kept apart from the code, a too-long
 * definition cut at statement starts into parts, and what lies outside any definition as the file's header chunk.
 * One instance per file; not thread-safe.
 */
final class ChunkAssembler {

    private final ExtractionResult doc;
    private final String language;
    private final SourceLines lines;
    private final String pkg;
    private final int maxChars;
    private final String path;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<ChunkInput> out = new ArrayList<>();
    /** The names re-exported by the top-level statement starting on a line. */
    private final Map<Integer, List<String>> reExported = new HashMap<>();

    ChunkAssembler(ExtractionResult doc, String language, SourceLines lines, String pkg, int maxChars) {
        this.doc = doc;
        this.language = language;
        this.lines = lines;
        this.pkg = pkg;
        this.maxChars = maxChars;
        this.path = doc.metadata().getOrDefault(ChunkMetadata.PATH, doc.source());
    }

    List<ChunkInput> assemble(List<Definition> topLevel, List<Integer> topLevelStarts,
            List<DefinitionFinder.ReExport> reExports) {
        for (DefinitionFinder.ReExport r : reExports) {
            reExported.computeIfAbsent(r.line(), l -> new ArrayList<>()).addAll(r.names());
        }
        boolean[] covered = new boolean[lines.count() + 2];
        for (Definition d : topLevel) {
            for (int l = d.firstLine(); l <= d.endLine; l++) {
                covered[l] = true;
            }
        }
        header(covered, topLevelStarts);
        for (Definition d : topLevel) {
            definition(d);
        }
        return out;
    }

    private void header(boolean[] covered, List<Integer> cuts) {
        List<Integer> kept = new ArrayList<>();
        for (int l = 1; l <= lines.count(); l++) {
            if (!covered[l]) {
                kept.add(l);
            }
        }
        if (kept.stream().allMatch(l -> lines.line(l).isBlank())) {
            return;
        }
        String name = path.substring(path.lastIndexOf('/') + 1);
        emitParts(name, "{header}", ChunkMetadata.SYMBOL_TYPE_HEADER, "header", null, "", "", kept,
                new TreeSet<>(cuts));
    }

    private void definition(Definition d) {
        boolean[] nested = new boolean[lines.count() + 2];
        List<Integer> kept = new ArrayList<>();
        for (Definition c : d.children) {
            for (int l = c.firstLine(); l <= c.endLine; l++) {
                nested[l] = true;
            }
        }
        for (int l = d.startLine; l <= d.endLine; l++) {
            if (!nested[l]) {
                kept.add(l);
            } else if (isFirstLineOfChild(d, l)) {
                kept.add(-l); // a nested definition: shown by its first code line
            }
        }
        String docComment = d.docStartLine > 0 ? join(d.docStartLine, d.docEndLine) : "";
        String docText = !docComment.isEmpty() ? docComment : d.docstring;
        emitParts(d.symbol, d.symbol, d.symbolType, d.kind, d, docComment, docText, kept,
                new TreeSet<>(d.cutLines));
        for (Definition c : d.children) {
            definition(c);
        }
    }

    private static boolean isFirstLineOfChild(Definition d, int line) {
        for (Definition c : d.children) {
            if (c.startLine == line) {
                return true;
            }
        }
        return false;
    }

    /**
     * Emits the kept lines as one chunk or, when longer than the limit, as parts cut at the last statement start
     * that fits (else at a line end). Negative line numbers are nested definitions shown by their first line.
     */
    private void emitParts(String symbol, String idName, String symbolType, String kind, Definition d,
            String docComment, String docText, List<Integer> kept, TreeSet<Integer> cuts) {
        List<List<Integer>> parts = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        int size = 0;
        int lastCut = -1; // index in current of the last statement start
        for (int l : kept) {
            int len = lineText(l).length() + 1;
            if (size + len > maxChars && !current.isEmpty()) {
                int at = lastCut > 0 ? lastCut : current.size();
                parts.add(new ArrayList<>(current.subList(0, at)));
                current = new ArrayList<>(current.subList(at, current.size()));
                size = current.stream().mapToInt(x -> lineText(x).length() + 1).sum();
                lastCut = -1;
            }
            if (cuts.contains(Math.abs(l)) && !current.isEmpty()) {
                lastCut = current.size();
            }
            current.add(l);
            size += len;
        }
        if (!current.isEmpty()) {
            parts.add(current);
        }
        if (d == null) {
            parts = trimBlank(parts);
        }
        String base = path + "#" + idName;
        for (int i = 0; i < parts.size(); i++) {
            List<Integer> part = parts.get(i);
            StringBuilder code = new StringBuilder();
            for (int l : part) {
                if (code.length() > 0) {
                    code.append('\n');
                }
                code.append(lineText(l));
            }
            String title = parts.size() == 1 ? symbol : symbol + " (part " + (i + 1) + " of " + parts.size() + ")";
            StringBuilder text = new StringBuilder(title).append('\n');
            if (i == 0 && !docComment.isEmpty()) {
                text.append(docComment).append('\n');
            }
            text.append(code);
            String body = code.toString();
            if (d != null && i == 0 && d.docstringStartLine > 0) {
                body = withoutLines(part, d.docstringStartLine, d.docstringEndLine);
            }
            String signature = d == null ? "" : signature(d);
            Map<String, String> meta = new LinkedHashMap<>(doc.metadata());
            meta.putIfAbsent(ChunkMetadata.PATH, path);
            meta.put(ChunkMetadata.LANGUAGE, language);
            if (!pkg.isEmpty()) {
                meta.put(ChunkMetadata.PACKAGE, pkg);
            }
            if (d != null) {
                String className = d.symbolType.equals(ChunkMetadata.SYMBOL_TYPE_TYPE) ? d.symbol
                        : d.parent == null ? "" : d.parent.symbol;
                if (!className.isEmpty()) {
                    meta.put(ChunkMetadata.CLASS_NAME, className);
                }
                meta.put(ChunkMetadata.QUALIFIED_NAME, pkg.isEmpty() ? symbol : pkg + "." + symbol);
                meta.put(ChunkMetadata.SIGNATURE, signature);
            }
            meta.put(ChunkMetadata.SYMBOL, symbol);
            meta.put(ChunkMetadata.SYMBOL_TYPE, symbolType);
            meta.put(ChunkMetadata.SYMBOL_KIND, kind);
            int first = d != null && i == 0 ? d.startLine : Math.abs(part.get(0));
            int last = d != null && i == parts.size() - 1 ? d.endLine : Math.abs(part.get(part.size() - 1));
            meta.put(ChunkMetadata.START_LINE, Integer.toString(first));
            meta.put(ChunkMetadata.END_LINE, Integer.toString(last));
            meta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE);
            for (String key : doc.listMetadata().keySet()) {
                meta.remove(key);
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put(ChunkMetadata.FIELD_NAME, symbol);
            if (!signature.isEmpty()) {
                fields.put(ChunkMetadata.FIELD_SIGNATURE, signature);
            }
            if (i == 0 && !docText.isBlank()) {
                fields.put(ChunkMetadata.FIELD_DOC, docText);
            }
            fields.put(ChunkMetadata.FIELD_BODY, body);
            if (d == null) {
                String names = reExportedIn(part);
                if (!names.isEmpty()) {
                    fields.put(ChunkMetadata.FIELD_EXPORTS, names);
                    meta.put(ChunkMetadata.EXPORTS, names);
                }
            }
            String id = unique(i == 0 ? base : base + "/" + (i + 1));
            out.add(new ChunkInput(id, text.toString(), meta, doc.listMetadata(), fields));
        }
    }

    /** The names the statements starting in {@code part} re-export, space-separated, first seen first. */
    private String reExportedIn(List<Integer> part) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (int l : part) {
            names.addAll(reExported.getOrDefault(Math.abs(l), List.of()));
        }
        return String.join(" ", names);
    }

    /** Header parts without their leading and trailing blank lines; blank parts dropped. */
    private List<List<Integer>> trimBlank(List<List<Integer>> parts) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<Integer> p : parts) {
            int from = 0;
            int to = p.size();
            while (from < to && lineText(p.get(from)).isBlank()) {
                from++;
            }
            while (to > from && lineText(p.get(to - 1)).isBlank()) {
                to--;
            }
            if (from < to) {
                out.add(p.subList(from, to));
            }
        }
        return out;
    }

    private String withoutLines(List<Integer> part, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int l : part) {
            if (Math.abs(l) >= from && Math.abs(l) <= to) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(lineText(l));
        }
        return sb.toString();
    }

    private String lineText(int l) {
        return l > 0 ? lines.line(l) : lines.line(-l).stripTrailing() + " ...";
    }

    private String join(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int l = from; l <= to; l++) {
            if (l > from) {
                sb.append('\n');
            }
            sb.append(lines.line(l));
        }
        return sb.toString();
    }

    /** The declaration: the first code line, cut before a body brace or {@code =}-body, trimmed. */
    private String signature(Definition d) {
        String first = lines.line(d.startLine).strip();
        int brace = first.indexOf('{');
        if (brace > 0) {
            first = first.substring(0, brace).strip();
        }
        return first.length() > 300 ? first.substring(0, 300) : first;
    }

    private String unique(String base) {
        int n = ids.merge(base, 1, Integer::sum);
        if (n == 1) {
            return base;
        }
        String candidate = base + "~" + n;
        while (ids.containsKey(candidate)) {
            candidate = base + "~" + ++n;
        }
        ids.put(candidate, 1);
        return candidate;
    }
}
