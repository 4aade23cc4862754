package dev.neuraltext.retrieve;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The kinds of file a path says a chunk comes from, each a separate feature of {@link RepositoryRanking} whose weight is
 * learned: tests, examples, vendored copies, generated code, compatibility or legacy shims, declaration stubs,
 * package barrels and Windows-only platform twins ({@code win/} beside {@code unix/}, {@code poll_windows.go}). The
 * rules are the common conventions of the ecosystems (folder and file names), never a project's own. Stateless.
 */
final class PathPriors {

    /** The prior features, in the order of {@link #of}. */
    static final String[] NAMES = {"test", "example", "vendored", "generated", "compat", "stub", "barrel", "platform"};

    private static final Set<String> TEST_DIRS = Set.of("test", "tests", "__tests__", "spec", "specs", "testing",
            "testdata", "test-data", "fixtures", "__mocks__");
    private static final Set<String> EXAMPLE_DIRS = Set.of("examples", "samples", "demos", "tutorials", "_examples");
    /**
     * Singular folder names count as examples only at the top of the repository: {@code example} is also a package
     * name ({@code com/example/...}).
     */
    private static final Set<String> EXAMPLE_TOP_DIRS = Set.of("example", "sample", "demo");
    /** Folders of type declarations only ({@code types/}, {@code typings/}, {@code @types/}): stubs, like {@code .d.ts}. */
    private static final Set<String> DECLARATION_DIRS = Set.of("types", "typings", "@types");
    private static final Set<String> VENDORED_DIRS = Set.of("vendor", "vendored", "third_party", "third-party",
            "thirdparty", "external", "node_modules", "deps", "extern");
    private static final Set<String> GENERATED_DIRS = Set.of("generated", "gen", "__generated__", "autogen");
    private static final Set<String> COMPAT_WORDS = Set.of("compat", "legacy", "deprecated", "shim", "shims",
            "polyfill", "polyfills", "backport", "backports");
    private static final Set<String> BARRELS = Set.of("__init__.py", "package-info.java", "module-info.java",
            "index.js", "index.ts", "index.mjs", "index.cjs", "index.jsx", "index.tsx", "mod.rs", "package.scala");

    /** Folders of a Windows-only implementation, the twin of a POSIX one ({@code win/} beside {@code unix/}). */
    private static final Set<String> WINDOWS_DIRS = Set.of("win", "win32", "win64", "windows");
    private static final Set<String> WINDOWS_SUFFIXES = Set.of("win", "win32", "windows");

    private static final Pattern TEST_CLASS = Pattern.compile("[A-Z]\\w*Tests?\\.\\w+");
    private static final Pattern STEM_WORDS = Pattern.compile("[_.-]");

    private PathPriors() {
    }

    /**
     * Whether a query whose content words are {@code queryWords} ({@link QueryTerms#words()}) asks about compatibility
     * or legacy code: a word starts with one of the words that mark such a path ({@code compatibility},
     * {@code deprecated}, {@code legacy}); then the {@code compat} prior, which buries such paths, does not apply.
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

    private static final Set<String> COMPAT_STEMS = Set.of("compat", "legacy", "deprecat", "shim", "polyfill",
            "backport");

    /** The feature values (0 or 1) of {@code path} (relative, forward slashes), in the order of {@link #NAMES}. */
    static double[] of(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        String[] segments = lower.split("/");
        String file = segments[segments.length - 1];
        String stem = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
        boolean test = false;
        boolean example = false;
        boolean vendored = false;
        boolean generated = false;
        boolean compat = false;
        boolean stub = false;
        boolean platform = false;
        for (int i = 0; i < segments.length - 1; i++) {
            String s = segments[i];
            test |= TEST_DIRS.contains(s);
            example |= EXAMPLE_DIRS.contains(s) || i == 0 && EXAMPLE_TOP_DIRS.contains(s);
            vendored |= VENDORED_DIRS.contains(s);
            generated |= GENERATED_DIRS.contains(s);
            compat |= COMPAT_WORDS.contains(s);
            stub |= DECLARATION_DIRS.contains(s);
            platform |= WINDOWS_DIRS.contains(s);
        }
        String original = path.substring(path.lastIndexOf('/') + 1);
        test |= stem.startsWith("test_") || stem.endsWith("_test") || stem.endsWith("_spec") || file.contains(".test.")
                || file.contains(".spec.") || TEST_CLASS.matcher(original).matches();
        example |= stem.startsWith("example") || stem.endsWith("_example");
        generated |= file.contains(".generated.") || file.endsWith(".pb.go") || stem.endsWith("_pb2")
                || file.endsWith(".min.js") || stem.endsWith("_generated");
        for (String word : STEM_WORDS.split(stem)) {
            compat |= COMPAT_WORDS.contains(word);
        }
        stub |= file.endsWith(".d.ts") || file.endsWith(".d.mts") || file.endsWith(".d.cts") || file.endsWith(".pyi");
        boolean barrel = BARRELS.contains(file);
        int underscore = stem.lastIndexOf('_');
        platform |= underscore > 0 && WINDOWS_SUFFIXES.contains(stem.substring(underscore + 1));
        return new double[] {b(test), b(example), b(vendored), b(generated), b(compat), b(stub), b(barrel),
            b(platform)};
    }

    private static double b(boolean v) {
        return v ? 1 : 0;
    }
}
