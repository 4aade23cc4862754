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
    USES("uses", 0.5),
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
     * The factor on a hit's name evidence in the one ranked list: callers and tests first, then documentation, then the
     * definitions used, at equal evidence. Fixed by judgement, not fitted: what an assistant cannot see from the target
     * itself (who depends on it) comes before what the target's own text already names (what it uses). With
     * {@code uses} at 0.9 the first hit of the {@code eval --related} set named the definition in 0.85 of the queries,
     * at 0.5 in 0.97 (docs/benchmarks.md): the set counts only the files naming the definition, so it cannot judge
     * this weight, only show its effect.
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
