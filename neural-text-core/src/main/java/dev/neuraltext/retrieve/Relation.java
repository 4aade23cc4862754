package dev.neuraltext.retrieve;

/**
 * How a hit of {@link RelatedCode} belongs with the code asked about.
 */
public enum Relation {
    /** Code outside the file that names one of the target's definitions: its callers, subclasses, importers. */
    USED_BY("used-by", 1.0),
    /** A test source (the {@code LanguageTable}'s test rules) that names the target, or the target file's twin test. */
    TEST("test", 1.0),
    /** A definition elsewhere whose name the target's code uses. */
    USES("uses", 0.9),
    /** A documentation chunk that names one of the target's definitions. */
    DOC("doc", 0.7);

    private final String label;
    private final double weight;

    Relation(String label, double weight) {
        this.label = label;
        this.weight = weight;
    }

    /** The label answers show ({@code used-by}, {@code test}, {@code uses}, {@code doc}). */
    public String label() {
        return label;
    }

    /**
     * The factor on a hit's name evidence in the one ranked list: callers and tests first, then the definitions used,
     * then documentation at equal evidence. Fixed by judgement (not fitted): which kind of related code an assistant
     * needs first when it changes a definition.
     */
    double weight() {
        return weight;
    }

    /** The relation with this label. */
    public static Relation fromLabel(String label) {
        for (Relation r : values()) {
            if (r.label.equals(label)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown relation '" + label + "', expected used-by, test, uses or doc");
    }
}
