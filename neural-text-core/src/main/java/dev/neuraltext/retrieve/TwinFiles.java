package dev.neuraltext.retrieve;

import dev.neuraltext.path.LanguageTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Files that another candidate of the same query supersedes, which {@link RepositoryRanking} adds to the path priors
 * they are a kind of. Unlike {@link PathPriors} these depend on the other candidates, because a file is only a twin
 * when what it stands in for is there too:
 * <ul>
 *   <li>a <b>declaration</b> twin ({@code stub}): a header ({@code .h}, {@code .hpp}, ...: the {@link LanguageTable}'s
 *       {@code headers}) whose implementation, a source file of the same stem ({@code .c}, {@code .cc}, {@code .cpp},
 *       ...: the other extensions of those languages), is a candidate;
 *       a header-only library's headers have no such twin and stay as they are;</li>
 *   <li>an <b>older version</b> ({@code compat}): a file under a version folder ({@code v3/}) when a candidate lies
 *       under a newer version folder of the same parent ({@code v4/}), unless the query names the older version
 *       ("v3 compatibility errors").</li>
 * </ul>
 * Stateless.
 */
final class TwinFiles {

    private static final LanguageTable TABLE = LanguageTable.standard();
    private static final Pattern VERSION = Pattern.compile("v(\\d{1,4})");

    private TwinFiles() {
    }

    /**
     * For each of {@code paths} (relative, forward slashes; the distinct files of one query's candidates), whether it
     * is a declaration twin (index 0) and an older version (index 1) of another of them; {@code queryWords} are the
     * query's content words ({@link QueryTerms#words()}), which say whether it names a version.
     */
    static boolean[][] of(List<String> queryWords, List<String> paths) {
        Set<String> implemented = new HashSet<>();
        List<String> lowerPaths = new ArrayList<>(paths.size());
        List<String[]> segments = new ArrayList<>(paths.size());
        for (String path : paths) {
            String lower = path.toLowerCase(Locale.ROOT);
            lowerPaths.add(lower);
            segments.add(lower.split("/"));
            if (TABLE.isSourceWithHeaders(extension(lower))) {
                implemented.add(stem(lower));
            }
        }
        boolean[][] out = new boolean[paths.size()][2];
        for (int i = 0; i < paths.size(); i++) {
            String lower = lowerPaths.get(i);
            out[i][0] = TABLE.isHeader(extension(lower)) && implemented.contains(stem(lower));
            out[i][1] = olderVersion(segments.get(i), segments, queryWords);
        }
        return out;
    }

    /** Whether a folder of {@code path} is a version below one that another path has under the same parent. */
    private static boolean olderVersion(String[] path, List<String[]> all, List<String> queryWords) {
        for (int k = 0; k < path.length - 1; k++) {
            int version = version(path[k]);
            if (version < 0 || queryWords.contains(path[k])) {
                continue;
            }
            for (String[] other : all) {
                if (other.length > k + 1 && version(other[k]) > version && samePrefix(path, other, k)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean samePrefix(String[] a, String[] b, int length) {
        for (int j = 0; j < length; j++) {
            if (!a[j].equals(b[j])) {
                return false;
            }
        }
        return true;
    }

    /** The number of a version folder name ({@code v3} is 3), or -1 when the name is not one. */
    private static int version(String segment) {
        Matcher m = VERSION.matcher(segment);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The file's name less its last extension, without its folders ({@code src/idna.h} is {@code idna}). */
    private static String stem(String lowerPath) {
        String file = lowerPath.substring(lowerPath.lastIndexOf('/') + 1);
        int dot = file.lastIndexOf('.');
        return dot > 0 ? file.substring(0, dot) : file;
    }

    private static String extension(String lowerPath) {
        String file = lowerPath.substring(lowerPath.lastIndexOf('/') + 1);
        int dot = file.lastIndexOf('.');
        return dot > 0 ? file.substring(dot + 1) : "";
    }
}
