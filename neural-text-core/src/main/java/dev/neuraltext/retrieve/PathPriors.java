package dev.neuraltext.retrieve;

import dev.neuraltext.path.LanguageTable;
import java.util.List;
import java.util.Set;

/**
 * The kinds of file a path says a chunk comes from, each a separate feature of {@link RepositoryRanking} whose weight is
 * learned: tests, examples, vendored copies, generated code, compatibility or legacy shims, declaration stubs,
 * package barrels and Windows-only platform twins ({@code win/} beside {@code unix/}, {@code poll_windows.go}). The
 * rules are the {@link LanguageTable}'s path kinds ({@code languages.yaml}): the common conventions of the ecosystems
 * (folder and file names), never a project's own. Stateless.
 */
final class PathPriors {

    /** The prior features, in the order of {@link #of}; each a path kind of the {@link LanguageTable}. */
    static final String[] NAMES = {"test", "example", "vendored", "generated", "compat", "stub", "barrel", "platform"};

    private static final LanguageTable TABLE = LanguageTable.standard();
    /** A query word starting with one of these asks about compatibility code ({@code compatibility}, ...). */
    private static final List<String> COMPAT_STEMS = TABLE.queryPrefixes("compat");

    static {
        for (String name : NAMES) {
            if (!TABLE.pathKinds().contains(name)) {
                throw new IllegalStateException("languages.yaml has no path kind '" + name + "', it has "
                        + TABLE.pathKinds());
            }
        }
    }

    private PathPriors() {
    }

    /**
     * Whether a query whose content words are {@code queryWords} ({@link QueryTerms#words()}) asks about compatibility
     * or legacy code: a word starts with one of the compat kind's query prefixes ({@code compat}, {@code deprecat},
     * {@code legacy}, ...); then the {@code compat} prior, which buries such paths, does not apply.
     */
    static boolean asksForCompat(List<String> queryWords) {
        for (String word : queryWords) {
            for (String mark : COMPAT_STEMS) {
                if (word.startsWith(mark)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The feature values (0 or 1) of {@code path} (relative, forward slashes), in the order of {@link #NAMES}. */
    static double[] of(String path) {
        Set<String> kinds = TABLE.kindsOf(path);
        double[] out = new double[NAMES.length];
        for (int i = 0; i < NAMES.length; i++) {
            out[i] = kinds.contains(NAMES[i]) ? 1 : 0;
        }
        return out;
    }
}
