package dev.neuraltext.chunk;

/**
 * The metadata keys and BM25 field names the chunkers write, shared by the stores' payload indexes and the evaluation
 * harness. Line numbers are canonical integers as strings, so {@code range} filters work on them.
 */
public final class ChunkMetadata {

    private ChunkMetadata() {
    }

    private static final java.util.regex.Pattern LINE_NUMBER = java.util.regex.Pattern.compile("\\d{1,9}");

    /**
     * {@code value} as a framework adapter hands it on: an {@link Integer} for {@link #START_LINE} and
     * {@link #END_LINE} when it is a line number (1 to 9 digits), else the string itself.
     */
    public static Object typedValue(String key, String value) {
        boolean line = key.equals(START_LINE) || key.equals(END_LINE);
        return line && LINE_NUMBER.matcher(value).matches() ? Integer.valueOf(value) : value;
    }

    /** Path relative to the indexed root, forward slashes. */
    public static final String PATH = "path";
    /** {@code java}, {@code markdown}, {@code text}, or a file-type name such as {@code xml}. */
    public static final String LANGUAGE = "language";
    /** Java package, "" for the default package; for syntax-tree chunks the package, namespace or module, if declared. */
    public static final String PACKAGE = "package";
    /** Enclosing class, nested as {@code Outer.Inner}. */
    public static final String CLASS_NAME = "className";
    /** The symbol or heading the chunk is about, e.g. {@code Outer.Inner.method} or a Markdown heading. */
    public static final String SYMBOL = "symbol";
    /**
     * {@code type}, {@code method}, {@code constructor}, {@code function}, {@code module}, {@code header},
     * {@code field}, {@code section} or {@code text}.
     */
    public static final String SYMBOL_TYPE = "symbolType";
    /**
     * For syntax-tree chunks: the definition's kind as its language calls it ({@code class}, {@code interface},
     * {@code trait}, {@code struct}, {@code enum}, {@code impl}, {@code object}, {@code function}, ...).
     */
    public static final String SYMBOL_KIND = "symbolKind";
    /** For syntax-tree chunks: the symbol with its package, namespace or module, e.g. {@code demo.shapes.Circle.area}. */
    public static final String QUALIFIED_NAME = "qualifiedName";
    /** A method's or type's declaration, e.g. {@code public int add(int a, int b)}. */
    public static final String SIGNATURE = "signature";
    /** First line of the chunk (1-based), canonical integer. */
    public static final String START_LINE = "startLine";
    /** Last line of the chunk (1-based, inclusive), canonical integer. */
    public static final String END_LINE = "endLine";
    /** {@code code} or {@code doc}. */
    public static final String TYPE = "type";
    /** For Markdown: the heading path, {@code Guide > Install > Linux}. */
    public static final String SECTION = "section";
    /** The names a header chunk re-exports, space-separated (see {@link #FIELD_EXPORTS}). */
    public static final String EXPORTS = "exports";
    /** List metadata from front matter. */
    public static final String TAGS = "tags";

    /** BM25 field: the symbol or heading. */
    public static final String FIELD_NAME = "name";
    /** BM25 field: the declaration. */
    public static final String FIELD_SIGNATURE = "signature";
    /** BM25 field: Javadoc or doc comment. */
    public static final String FIELD_DOC = "doc";
    /** BM25 field: the code or prose. */
    public static final String FIELD_BODY = "body";
    /**
     * BM25 field: the names a file's header re-exports though they are defined elsewhere (Rust's {@code pub use},
     * {@code export { X } from}): in this index the place where such a name enters the code.
     */
    public static final String FIELD_EXPORTS = "exports";

    /** {@link #TYPE} value of source code chunks. */
    public static final String TYPE_CODE = "code";
    /** {@link #TYPE} value of documentation and prose chunks. */
    public static final String TYPE_DOC = "doc";

    /** {@link #SYMBOL_TYPE} value of a class, interface, enum, record or annotation type. */
    public static final String SYMBOL_TYPE_TYPE = "type";
    /** {@link #SYMBOL_TYPE} value of a method. */
    public static final String SYMBOL_TYPE_METHOD = "method";
    /** {@link #SYMBOL_TYPE} value of a constructor. */
    public static final String SYMBOL_TYPE_CONSTRUCTOR = "constructor";
    /** {@link #SYMBOL_TYPE} value of a function outside any type. */
    public static final String SYMBOL_TYPE_FUNCTION = "function";
    /** {@link #SYMBOL_TYPE} value of a module or namespace that holds code of its own (Rust {@code mod}, Ruby). */
    public static final String SYMBOL_TYPE_MODULE = "module";
    /** {@link #SYMBOL_TYPE} value of what lies outside any definition of a source file: imports, top-level code. */
    public static final String SYMBOL_TYPE_HEADER = "header";
    /** {@link #SYMBOL_TYPE} value of a Markdown heading section. */
    public static final String SYMBOL_TYPE_SECTION = "section";
    /** {@link #SYMBOL_TYPE} value of a token window of plain text. */
    public static final String SYMBOL_TYPE_TEXT = "text";
}
