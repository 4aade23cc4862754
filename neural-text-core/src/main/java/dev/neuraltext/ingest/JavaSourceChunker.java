package dev.neuraltext.ingest;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.Range;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.AnnotationDeclaration;
import com.github.javaparser.ast.body.AnnotationMemberDeclaration;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.CompactConstructorDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.comments.Comment;
import com.github.javaparser.ast.comments.JavadocComment;
import com.github.javaparser.ast.nodeTypes.NodeWithTypeParameters;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.internal.ControlChars;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chunks Java source with JavaParser (language level Java 21): one chunk per method and constructor, Javadoc kept
 * with it, and one per type (class, interface, enum, record, annotation; nested types as {@code Outer.Inner}) holding
 * its declaration, fields, enum constants and member signatures. Anonymous and local classes stay inside the method
 * that declares them. A file that does not parse falls back to {@link PlainTextChunker} with a logged warning, so
 * nothing is dropped silently.
 *
 * <p>Chunk ids are {@code path#Outer.Inner.method(int,List,String...)} (types: {@code path#Outer.Inner}; parameter
 * types by simple name without type arguments, as the commons-lang benchmark corpus writes them): stable across runs,
 * independent of line numbers; overloads differ by parameter types, remaining collisions get {@code ~2}, {@code ~3}
 * in source order. Chunk text is {@code Outer.Inner.method} on the first line, then the Javadoc and the
 * code as written. Metadata: see {@link ChunkMetadata}; BM25 fields {@code name}, {@code signature}, {@code doc},
 * {@code body}.
 *
 * <p>Stateless and safe for concurrent use.
 */
public final class JavaSourceChunker implements Chunker {

    private static final Logger LOG = LoggerFactory.getLogger(JavaSourceChunker.class);

    private final PlainTextChunker fallback;

    /** A chunker falling back to {@link PlainTextChunker#create()} for files that do not parse. */
    public JavaSourceChunker() {
        this(PlainTextChunker.create());
    }

    /** A chunker falling back to {@code fallback} for files that do not parse. */
    public JavaSourceChunker(PlainTextChunker fallback) {
        this.fallback = java.util.Objects.requireNonNull(fallback, "fallback");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Parses on a thread with a {@value ParserThread#STACK_BYTES}-byte stack: a file nested deeper than that
     * allows (thousands of parentheses) is indexed as plain text with a warning naming it, as a parse error is.
     */
    @Override
    public List<ChunkInput> chunk(ExtractionResult document) {
        Objects.requireNonNull(document, "document");
        return ParserThread.call(document.source(), () -> chunkParsed(document)).orElseGet(() -> {
            LOG.warn("{}: nested too deeply for the Java parser, indexed as plain text",
                    ControlChars.escapeLine(document.source()));
            return fallback.chunk(asJava(document));
        });
    }

    private List<ChunkInput> chunkParsed(ExtractionResult document) {
        ParserConfiguration config = new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21)
                .setAttributeComments(true);
        ParseResult<CompilationUnit> result;
        try {
            result = new JavaParser(config).parse(document.text());
        } catch (RuntimeException e) {
            LOG.warn("{}: Java parser failed ({}), indexed as plain text", ControlChars.escapeLine(document.source()),
                    e.toString());
            return fallback.chunk(asJava(document));
        }
        if (!result.isSuccessful() || result.getResult().isEmpty()) {
            String problem = result.getProblems().isEmpty() ? "no result" : result.getProblem(0).getVerboseMessage();
            LOG.warn("{}: does not parse as Java ({}), indexed as plain text", ControlChars.escapeLine(document.source()),
                    ControlChars.escapeLine(problem.replace('\n', ' ')));
            return fallback.chunk(asJava(document));
        }
        CompilationUnit cu = result.getResult().get();
        Context ctx = new Context(document, new SourceText(document.text()),
                cu.getPackageDeclaration().map(p -> p.getNameAsString()).orElse(""));
        for (TypeDeclaration<?> type : cu.getTypes()) {
            chunkType(ctx, type, "");
        }
        if (ctx.chunks.isEmpty() && !document.text().isBlank()) {
            // package-info.java, module-info.java, or a file with only imports: keep it findable
            return fallback.chunk(asJava(document));
        }
        return ctx.chunks;
    }

    private static ExtractionResult asJava(ExtractionResult document) {
        Map<String, String> meta = new LinkedHashMap<>(document.metadata());
        meta.put(ChunkMetadata.LANGUAGE, "java");
        return new ExtractionResult(document.source(), document.text(), meta, document.listMetadata());
    }

    private static final class Context {
        final ExtractionResult doc;
        final SourceText src;
        final String pkg;
        final String path;
        final ChunkIds ids = new ChunkIds();
        final List<ChunkInput> chunks = new ArrayList<>();

        Context(ExtractionResult doc, SourceText src, String pkg) {
            this.doc = doc;
            this.src = src;
            this.pkg = pkg;
            this.path = ChunkIds.documentKey(doc);
        }
    }

    private void chunkType(Context ctx, TypeDeclaration<?> type, String outer) {
        String className = outer.isEmpty() ? type.getNameAsString() : outer + "." + type.getNameAsString();
        String header = typeHeader(ctx.src, type);
        String javadoc = commentSource(ctx.src, type);
        String docText = docText(type);

        StringBuilder members = new StringBuilder();
        for (BodyDeclaration<?> member : enumConstantsThenMembers(type)) {
            String m = memberSummary(ctx.src, member);
            if (!m.isEmpty()) {
                members.append("    ").append(m.replace("\n", "\n    ")).append('\n');
            }
        }
        StringBuilder text = new StringBuilder();
        text.append(qualified(ctx.pkg, className)).append(" (").append(kind(type)).append(")\n");
        if (!javadoc.isEmpty()) {
            text.append(javadoc).append('\n');
        }
        text.append(header).append(" {\n").append(members).append('}');

        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(ChunkMetadata.FIELD_NAME, className);
        fields.put(ChunkMetadata.FIELD_SIGNATURE, header);
        if (!docText.isEmpty()) {
            fields.put(ChunkMetadata.FIELD_DOC, docText);
        }
        fields.put(ChunkMetadata.FIELD_BODY, members.toString());
        emit(ctx, ctx.path + "#" + className, text.toString(), className, className, ChunkMetadata.SYMBOL_TYPE_TYPE,
                header,
                type.getRange().orElse(null), fields);

        for (BodyDeclaration<?> member : type.getMembers()) {
            if (member instanceof TypeDeclaration<?> nested) {
                chunkType(ctx, nested, className);
            } else if (member instanceof CallableDeclaration<?> callable) {
                chunkCallable(ctx, callable, className);
            } else if (member instanceof CompactConstructorDeclaration compact) {
                chunkCompactConstructor(ctx, compact, className);
            }
        }
    }

    private void chunkCallable(Context ctx, CallableDeclaration<?> callable, String className) {
        String name = callable.getNameAsString();
        boolean ctor = callable instanceof ConstructorDeclaration;
        String signature = declaration(callable);
        String symbol = className + "." + name;
        String id = ctx.path + "#" + className + "." + name + "(" + String.join(",",
                callable.getParameters().stream().map(JavaSourceChunker::erasedParameter).toList()) + ")";
        String symbolType = ctor ? ChunkMetadata.SYMBOL_TYPE_CONSTRUCTOR : ChunkMetadata.SYMBOL_TYPE_METHOD;
        writeMember(ctx, callable, symbol, className, symbolType, signature, id);
    }

    /** A parameter's type as ids show it: simple name, no type arguments, {@code []} kept, varargs as {@code ...}. */
    private static String erasedParameter(com.github.javaparser.ast.body.Parameter p) {
        return erased(p.getType()) + (p.isVarArgs() ? "..." : "");
    }

    private static String erased(com.github.javaparser.ast.type.Type t) {
        if (t instanceof com.github.javaparser.ast.type.ArrayType a) {
            return erased(a.getComponentType()) + "[]";
        }
        if (t instanceof com.github.javaparser.ast.type.ClassOrInterfaceType c) {
            return c.getNameAsString();
        }
        return t.asString();
    }

    private void chunkCompactConstructor(Context ctx, CompactConstructorDeclaration compact, String className) {
        String name = compact.getNameAsString();
        String signature = (compact.getModifiers().isEmpty() ? "" : modifiers(compact.getModifiers()) + " ") + name;
        String symbol = className + "." + name;
        writeMember(ctx, compact, symbol, className, ChunkMetadata.SYMBOL_TYPE_CONSTRUCTOR, signature,
                ctx.path + "#" + className + "." + name + "{compact}");
    }

    private void writeMember(Context ctx, Node node, String symbol, String className, String symbolType,
            String signature, String id) {
        String javadoc = commentSource(ctx.src, node);
        String code = nodeSource(ctx.src, node);
        StringBuilder text = new StringBuilder(symbol).append('\n');
        if (!javadoc.isEmpty()) {
            text.append(javadoc).append('\n');
        }
        text.append(code);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(ChunkMetadata.FIELD_NAME, symbol);
        fields.put(ChunkMetadata.FIELD_SIGNATURE, signature);
        String doc = docText(node);
        if (!doc.isEmpty()) {
            fields.put(ChunkMetadata.FIELD_DOC, doc);
        }
        fields.put(ChunkMetadata.FIELD_BODY, code);
        emit(ctx, id, text.toString(), className, symbol, symbolType, signature, node.getRange().orElse(null), fields);
    }

    private static void emit(Context ctx, String baseId, String text, String className, String symbol,
            String symbolType, String signature, Range range, Map<String, String> fields) {
        Map<String, String> meta = new LinkedHashMap<>(ctx.doc.metadata());
        meta.putIfAbsent(ChunkMetadata.PATH, ctx.path);
        meta.put(ChunkMetadata.LANGUAGE, "java");
        meta.put(ChunkMetadata.PACKAGE, ctx.pkg);
        meta.put(ChunkMetadata.CLASS_NAME, className);
        meta.put(ChunkMetadata.SYMBOL, symbol);
        meta.put(ChunkMetadata.SYMBOL_TYPE, symbolType);
        meta.put(ChunkMetadata.SIGNATURE, signature);
        if (range != null) {
            meta.put(ChunkMetadata.START_LINE, Integer.toString(range.begin.line));
            meta.put(ChunkMetadata.END_LINE, Integer.toString(range.end.line));
        }
        meta.put(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE);
        for (String key : ctx.doc.listMetadata().keySet()) {
            meta.remove(key);
        }
        ctx.chunks.add(new ChunkInput(ctx.ids.unique(baseId), text, meta, ctx.doc.listMetadata(), fields));
    }

    private static String qualified(String pkg, String className) {
        return pkg.isEmpty() ? className : pkg + "." + className;
    }

    private static String kind(TypeDeclaration<?> type) {
        if (type instanceof RecordDeclaration) {
            return "record";
        }
        if (type instanceof EnumDeclaration) {
            return "enum";
        }
        if (type instanceof AnnotationDeclaration) {
            return "annotation";
        }
        if (type instanceof ClassOrInterfaceDeclaration c && c.isInterface()) {
            return "interface";
        }
        return "class";
    }

    private static List<BodyDeclaration<?>> enumConstantsThenMembers(TypeDeclaration<?> type) {
        List<BodyDeclaration<?>> out = new ArrayList<>();
        if (type instanceof EnumDeclaration e) {
            out.addAll(e.getEntries());
        }
        out.addAll(type.getMembers());
        return out;
    }

    /** A member as the type chunk shows it: fields in full, callables and nested types by their declaration. */
    private static String memberSummary(SourceText src, BodyDeclaration<?> member) {
        if (member instanceof FieldDeclaration || member instanceof AnnotationMemberDeclaration) {
            String doc = commentSource(src, member);
            String code = nodeSource(src, member);
            return doc.isEmpty() ? code : doc + "\n" + code;
        }
        if (member instanceof EnumConstantDeclaration c) {
            String args = c.getArguments().isEmpty() ? ""
                    : "(" + String.join(", ", c.getArguments().stream().map(Node::toString).toList()) + ")";
            return c.getNameAsString() + args + (c.getClassBody().isEmpty() ? "," : " { ... },");
        }
        if (member instanceof CallableDeclaration<?> callable) {
            return declaration(callable) + ";";
        }
        if (member instanceof CompactConstructorDeclaration compact) {
            return (compact.getModifiers().isEmpty() ? "" : modifiers(compact.getModifiers()) + " ")
                    + compact.getNameAsString() + " { ... }";
        }
        if (member instanceof TypeDeclaration<?> nested) {
            return typeHeader(src, nested) + " { ... }";
        }
        if (member instanceof InitializerDeclaration init) {
            return init.isStatic() ? "static { ... }" : "{ ... }";
        }
        return "";
    }

    /** Modifiers, type parameters, return type, name, parameters and throws clause (no annotations, no body). */
    private static String declaration(CallableDeclaration<?> callable) {
        String rest = callable instanceof MethodDeclaration m ? m.getDeclarationAsString(false, true, true)
                : ((ConstructorDeclaration) callable).getDeclarationAsString(false, true, true);
        StringBuilder sb = new StringBuilder();
        if (!callable.getModifiers().isEmpty()) {
            sb.append(modifiers(callable.getModifiers())).append(' ');
        }
        if (!callable.getTypeParameters().isEmpty()) {
            sb.append('<').append(String.join(", ", callable.getTypeParameters().stream().map(Node::toString).toList()))
                    .append("> ");
        }
        return sb.append(rest).toString();
    }

    private static String modifiers(NodeList<com.github.javaparser.ast.Modifier> modifiers) {
        return String.join(" ", modifiers.stream().map(m -> m.getKeyword().asString()).toList());
    }

    /**
     * The declaration of a type as written, from its first annotation or modifier to the end of its name, type
     * parameters, record components, extends, implements and permits clauses.
     */
    private static String typeHeader(SourceText src, TypeDeclaration<?> type) {
        Optional<Position> begin = type.getBegin();
        if (begin.isEmpty()) {
            return type.getNameAsString();
        }
        Position end = type.getName().getEnd().orElse(begin.get());
        List<Node> tail = new ArrayList<>();
        if (type instanceof NodeWithTypeParameters<?> t) {
            tail.addAll(t.getTypeParameters());
        }
        if (type instanceof ClassOrInterfaceDeclaration c) {
            tail.addAll(c.getExtendedTypes());
            tail.addAll(c.getImplementedTypes());
            tail.addAll(c.getPermittedTypes());
        } else if (type instanceof EnumDeclaration e) {
            tail.addAll(e.getImplementedTypes());
        } else if (type instanceof RecordDeclaration r) {
            tail.addAll(r.getParameters());
            tail.addAll(r.getImplementedTypes());
        }
        for (Node n : tail) {
            Optional<Position> e = n.getEnd();
            if (e.isPresent() && e.get().isAfter(end)) {
                end = e.get();
            }
        }
        // the closing '>' of type parameters and ')' of record components belong to no child node: cut at the body
        String rest = src.range(end.line, end.column + 1, end.line + 20, Integer.MAX_VALUE);
        int brace = rest.indexOf('{');
        String text = src.range(begin.get().line, begin.get().column, end.line, end.column)
                + (brace >= 0 ? rest.substring(0, brace) : "");
        text = text.strip();
        return SourceText.dedent(text, begin.get().column - 1);
    }

    /** The node as written (annotations to closing brace), dedented. */
    private static String nodeSource(SourceText src, Node node) {
        Optional<Range> r = node.getRange();
        if (r.isEmpty()) {
            return node.toString();
        }
        Range range = r.get();
        return SourceText.dedent(src.range(range.begin.line, range.begin.column, range.end.line, range.end.column),
                range.begin.column - 1);
    }

    /** The comment attached to the node (Javadoc, block or line comment) as written, or "". */
    private static String commentSource(SourceText src, Node node) {
        Optional<Comment> c = node.getComment();
        if (c.isEmpty() || c.get().getRange().isEmpty()) {
            return "";
        }
        Range range = c.get().getRange().get();
        return SourceText.dedent(src.range(range.begin.line, range.begin.column, range.end.line, range.end.column),
                range.begin.column - 1);
    }

    /** The comment's text without comment markers, for the BM25 {@code doc} field. */
    private static String docText(Node node) {
        Optional<Comment> c = node.getComment();
        if (c.isEmpty()) {
            return "";
        }
        String content = c.get().getContent();
        StringBuilder sb = new StringBuilder();
        for (String line : SourceText.splitLines(content)) {
            String t = line.strip();
            if (t.startsWith("*")) {
                t = t.substring(1).strip();
            }
            if (!t.isEmpty()) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(t);
            }
        }
        return c.get() instanceof JavadocComment || sb.length() > 0 ? sb.toString() : "";
    }
}
