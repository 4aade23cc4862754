package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays the corpus of bad inputs in {@code src/test/resources/bad-inputs}, as jsoup keeps one: each folder holds
 * the files of one case ({@code input/}) and its script ({@code case.txt}), which runs command lines and checks the
 * exit code and the messages. After every case the index, if one exists, must load, with the store and its file
 * manifest agreeing. Add every future crash input here.
 *
 * <p>Script lines, tab-separated; {@code {src}} is a copy of {@code input/}, {@code {index}} an index folder,
 * {@code {tmp}} a scratch folder:
 * <pre>
 * run &lt;exit code&gt; &lt;arg&gt;...        run the CLI; the checks below apply to the last run
 * out-contains &lt;text&gt;              stdout contains text ({@code \e} stands for ESC, {@code \a} for BEL)
 * err-contains &lt;text&gt;              stderr contains text
 * out-lacks &lt;text&gt;                 stdout does not contain text
 * no-raw-control                     neither stdout nor stderr holds a control character but newline and tab
 * first-line &lt;text&gt;                the first line of stderr, else of stdout, starts with text
 * flip &lt;glob&gt; &lt;find&gt; &lt;replace&gt;    replace bytes in the index files matching glob (a corrupting edit)
 * delete &lt;path&gt;                    delete a file of {src}
 * </pre>
 */
class BadInputCorpusTest {

    @TempDir
    Path tmp;

    @BeforeAll
    static void quiet() {
        NeuralTextCli.quietLogging();
    }

    static Stream<String> cases() throws IOException, URISyntaxException {
        Path corpus = corpus();
        try (Stream<Path> s = Files.list(corpus)) {
            List<String> names = s.filter(p -> Files.isRegularFile(p.resolve("case.txt")))
                    .map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).as("cases in " + corpus).hasSizeGreaterThanOrEqualTo(9);
            return names.stream();
        }
    }

    private static Path corpus() throws URISyntaxException {
        return Path.of(BadInputCorpusTest.class.getResource("/bad-inputs").toURI());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void replay(String name) throws Exception {
        Path dir = corpus().resolve(name);
        Path src = tmp.resolve("src");
        Path index = tmp.resolve("ix");
        Path scratch = tmp.resolve("tmp");
        Files.createDirectories(scratch);
        copy(dir.resolve("input"), src);
        CliFixture.Result last = null;
        List<String> lines = Files.readAllLines(dir.resolve("case.txt"), StandardCharsets.UTF_8);
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            for (int i = 1; i < f.length; i++) {
                f[i] = f[i].replace("{src}", src.toString()).replace("{index}", index.toString())
                        .replace("{tmp}", scratch.toString()).replace("\\e", "\u001b").replace("\\a", "\u0007");
            }
            String where = name + "/case.txt:" + (n + 1) + " (" + line + ")";
            String output = last == null ? "" : "\n--- stdout\n" + last.out() + "\n--- stderr\n" + last.err();
            switch (f[0]) {
                case "run" -> {
                    last = CliFixture.run(Arrays.copyOfRange(f, 2, f.length));
                    assertThat(last.exitCode()).as(where + "\n--- stdout\n" + last.out() + "\n--- stderr\n"
                            + last.err()).isEqualTo(Integer.parseInt(f[1]));
                    assertThat(last.err()).as(where + ": no stack trace").doesNotContain("\tat ");
                }
                case "out-contains" -> assertThat(last.out()).as(where + output).contains(f[1]);
                case "err-contains" -> assertThat(last.err()).as(where + output).contains(f[1]);
                case "out-lacks" -> assertThat(last.out()).as(where + output).doesNotContain(f[1]);
                case "no-raw-control" -> assertThat(last.out() + last.err()).as(where + output)
                        .doesNotContainPattern("[\\p{Cc}&&[^\\n\\t\\r]]");
                case "first-line" -> assertThat(firstLine(last)).as(where + output).startsWith(f[1]);
                case "flip" -> flip(index, f[1], f[2], f[3], where);
                case "delete" -> Files.delete(src.resolve(f[1]));
                default -> throw new IllegalArgumentException(where + ": unknown step " + f[0]);
            }
        }
        assertIntact(index, name);
    }

    static String firstLine(CliFixture.Result r) {
        String text = r.err().isBlank() ? r.out() : r.err();
        return text.strip().split("\n", 2)[0];
    }

    /** The index loads, whole, and its file manifest describes exactly the chunks the store holds. */
    private static void assertIntact(Path index, String name) {
        if (!InMemoryCaseStore.exists(index)) {
            return;
        }
        InMemoryCaseStore store = InMemoryCaseStore.load(index, InMemoryCaseStore.readFingerprint(index));
        IndexManifest manifest = IndexManifest.fromBytes(store.loadedAttachment(IndexSession.MANIFEST_FILE)
                .orElseThrow(() -> new AssertionError(name + ": the index has no file manifest")), name);
        List<String> ids = new ArrayList<>();
        manifest.files().values().forEach(f -> ids.addAll(f.chunkIds()));
        assertThat(store.chunks(PayloadFilter.all())).as(name + ": store and manifest agree")
                .extracting(c -> c.id()).containsExactlyInAnyOrderElementsOf(ids);
    }

    private static void flip(Path index, String glob, String find, String replace, String where) throws IOException {
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        int flipped = 0;
        try (Stream<Path> s = Files.walk(index)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                if (!matcher.matches(index.relativize(p))) {
                    continue;
                }
                String content = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                if (content.contains(find)) {
                    Files.write(p, content.replace(find, replace).getBytes(StandardCharsets.ISO_8859_1));
                    flipped++;
                }
            }
        }
        assertThat(flipped).as(where + ": files changed").isPositive();
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
