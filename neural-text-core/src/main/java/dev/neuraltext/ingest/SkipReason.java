package dev.neuraltext.ingest;

/** Why {@link DirectoryIngestor} did not index a file or directory. */
public enum SkipReason {
    /** Matched by a {@code .gitignore} rule. */
    GITIGNORED("ignored by .gitignore"),
    /** Matched an exclude glob or a {@code .neural-textignore} rule, or no include glob. */
    EXCLUDED("excluded by pattern"),
    /** A test source, excluded by default ({@code src/test/**}, {@code *Test.java}, ...). */
    TEST_SOURCE("test source"),
    /** A hidden file or directory (name starting with a dot, e.g. {@code .git}). */
    HIDDEN("hidden"),
    /** Contains NUL bytes in its first 8 KiB. */
    BINARY("binary"),
    /** Larger than the size limit. */
    TOO_LARGE("over size limit"),
    /** No chunker for its file type. */
    UNSUPPORTED_TYPE("unsupported file type"),
    /** A symbolic link whose target lies outside the root: refused. */
    OUTSIDE_ROOT("symlink escaping the root"),
    /** A symbolic link within the root: its target is indexed under its own path, once. */
    SYMLINK("symlink inside the root"),
    /** Could not be read. */
    UNREADABLE("unreadable");

    private final String label;

    SkipReason(String label) {
        this.label = label;
    }

    /** A short human-readable description, for reports. */
    public String label() {
        return label;
    }
}
