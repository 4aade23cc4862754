package dev.neuraltext.mcp;

import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A git repository under random churn for {@link McpChurnIT}: Java and Markdown files, each carrying a unique token
 * ({@code zq} and four letters, the same length every time, so that an edit swapping tokens keeps the file's size), a
 * second branch that differs from the first in hundreds of files, root and nested {@code .gitignore} files with
 * {@code !} negations. Every operation is drawn from the seeded {@link Random}, so a seed replays the same sequence;
 * each returns the checks a search right after it can make ({@link Expect}).
 */
final class ChurnRepo {

    /** One check after an operation: searching {@code token} finds {@code path}, or never finds {@code path}. */
    record Expect(String token, String path, boolean present) {
    }

    /** What one operation did and what a search may check. */
    record Step(String description, List<Expect> expects) {
    }

    private static final String[] WORDS = {"retry", "backoff", "parser", "token", "index", "cache", "stream", "window",
        "merge", "schedule", "socket", "buffer", "ledger", "invoice", "render", "shader", "queue", "lease", "quorum",
        "snapshot"};
    private static final String[] DIRS = {"src/a", "src/b", "src/c/deep", "src/d", "lib/util", "docs", "build",
        "gen", "app"};
    private static final String[] ROOT_IGNORES = {"build/", "*.log", "gen/", "!gen/Keep*.java", "docs/*.md",
        "!docs/README.md", "lib/**/C1*.java"};
    private static final String[] NESTED_IGNORES = {"C2*.java", "!C23.java", "deep/", "*.md"};

    final Path root;
    private final Random rnd;
    private int tokenCounter;
    private int fileCounter;
    private final Set<String> grown = new TreeSet<>();
    private final Set<String> rootIgnore = new TreeSet<>();
    private final Set<String> nestedIgnore = new TreeSet<>();
    private final List<String> links = new ArrayList<>();
    private String branch = "main";

    ChurnRepo(Path root, long seed) {
        this.root = root;
        this.rnd = new Random(seed);
    }

    /** Creates the repository: {@code files} files on {@code main}, and branch {@code other} differing in many. */
    void create(int files) throws IOException, InterruptedException {
        Files.createDirectories(root);
        git("init", "-q", "-b", "main");
        git("config", "user.email", "churn@example.invalid");
        git("config", "user.name", "churn");
        rootIgnore.addAll(List.of("build/", "*.log", "gen/", "!gen/Keep*.java"));
        nestedIgnore.addAll(List.of("C2*.java", "!C23.java"));
        writeIgnores();
        for (int i = 0; i < files; i++) {
            write(newPath(DIRS[rnd.nextInt(5)]), content());
        }
        write("docs/README.md", markdown());
        write("gen/KeepMe.java", content());
        git("add", "-A");
        git("commit", "-q", "-m", "main");
        git("checkout", "-q", "-b", "other");
        List<String> all = trackedFiles();
        for (String p : all) {
            int r = rnd.nextInt(10);
            if (r < 3) {
                write(p, content());
            } else if (r == 3) {
                Files.delete(root.resolve(p));
            }
        }
        for (int i = 0; i < files / 5; i++) {
            write(newPath(DIRS[rnd.nextInt(5)]), content());
        }
        git("add", "-A");
        git("commit", "-q", "-m", "other");
        git("checkout", "-q", "main");
    }

    /** One random operation. */
    Step step() throws IOException, InterruptedException {
        int r = rnd.nextInt(100);
        if (r < 24) {
            return edit();
        } else if (r < 38) {
            return add();
        } else if (r < 48) {
            return delete();
        } else if (r < 60) {
            return rename();
        } else if (r < 66) {
            return checkout();
        } else if (r < 71) {
            return bulkRewrite();
        } else if (r < 78) {
            return growOrShrink();
        } else if (r < 86) {
            return editIgnores();
        } else if (r < 93) {
            return symlink();
        } else {
            return generatedFolder();
        }
    }

    private Step edit() throws IOException {
        String p = pick();
        if (p == null) {
            return add();
        }
        String old = Files.readString(root.resolve(p));
        String token = token();
        String next = rnd.nextBoolean() ? old.replaceAll("zq[a-z]{4}", token) : content(token);
        write(p, next);
        return new Step("edit " + p + (next.length() == old.length() ? " (same size)" : ""), List.of(expect(token, p)));
    }

    private Step add() throws IOException {
        String dir = DIRS[rnd.nextInt(DIRS.length)];
        String p = rnd.nextInt(8) == 0 ? dir + "/trace" + (fileCounter++) + ".log" : newPath(dir);
        String token = token();
        write(p, p.endsWith(".md") ? markdown(token) : content(token));
        return new Step("add " + p, List.of(expect(token, p)));
    }

    private Step delete() throws IOException {
        String p = pick();
        if (p == null) {
            return add();
        }
        String token = tokenOf(p);
        Files.delete(root.resolve(p));
        grown.remove(p);
        return new Step("delete " + p, token == null ? List.of() : List.of(new Expect(token, p, false)));
    }

    private Step rename() throws IOException {
        String p = pick();
        if (p == null || grown.contains(p)) {
            return add();
        }
        String q = newPath(DIRS[rnd.nextInt(DIRS.length)]);
        String token = tokenOf(p);
        Files.createDirectories(root.resolve(q).getParent());
        Files.move(root.resolve(p), root.resolve(q));
        List<Expect> e = token == null ? List.of() : List.of(new Expect(token, p, false), expect(token, q));
        return new Step("rename " + p + " -> " + q, e);
    }

    Step checkout() throws IOException, InterruptedException {
        branch = branch.equals("main") ? "other" : "main";
        git("checkout", "-q", "-f", branch);
        grown.clear();
        writeIgnores();
        return new Step("checkout " + branch, List.of());
    }

    Step bulkRewrite() throws IOException {
        List<String> files = indexableCandidates();
        int n = 0;
        for (String p : files) {
            if (rnd.nextBoolean() && !grown.contains(p)) {
                String s = Files.readString(root.resolve(p));
                write(p, s.startsWith("// formatted\n") ? s.substring(13) : "// formatted\n" + s);
                n++;
            }
        }
        return new Step("bulk rewrite of " + n + " files", List.of());
    }

    private Step growOrShrink() throws IOException {
        if (!grown.isEmpty() && rnd.nextBoolean()) {
            String p = grown.iterator().next();
            grown.remove(p);
            String token = token();
            write(p, content(token));
            return new Step("shrink " + p, List.of(expect(token, p)));
        }
        String p = pick();
        if (p == null) {
            return add();
        }
        String token = tokenOf(p);
        StringBuilder big = new StringBuilder(Files.readString(root.resolve(p)));
        while (big.length() <= DirectoryIngestor.DEFAULT_MAX_FILE_BYTES) {
            big.append("// padding ").append(WORDS[rnd.nextInt(WORDS.length)]).append(" line to grow the file\n");
        }
        write(p, big.toString());
        grown.add(p);
        return new Step("grow " + p + " past the size limit", token == null ? List.of()
                : List.of(new Expect(token, p, false)));
    }

    private Step editIgnores() throws IOException {
        boolean nested = rnd.nextBoolean();
        String[] pool = nested ? NESTED_IGNORES : ROOT_IGNORES;
        Set<String> set = nested ? nestedIgnore : rootIgnore;
        String line = pool[rnd.nextInt(pool.length)];
        boolean added = set.add(line);
        if (!added) {
            set.remove(line);
        }
        writeIgnores();
        return new Step((added ? "ignore " : "un-ignore ") + line + (nested ? " in src/b/.gitignore" : ""), List.of());
    }

    private Step symlink() throws IOException {
        if (!links.isEmpty() && rnd.nextBoolean()) {
            String l = links.remove(rnd.nextInt(links.size()));
            Files.deleteIfExists(root.resolve(l));
            return new Step("remove symlink " + l, List.of());
        }
        String target = pick();
        int kind = rnd.nextInt(3);
        String l = "app/link" + (fileCounter++) + (kind == 1 ? "" : ".java");
        Files.createDirectories(root.resolve("app"));
        Path link = root.resolve(l);
        if (kind == 0 && target != null) {
            Files.createSymbolicLink(link, link.getParent().relativize(root.resolve(target)));
        } else if (kind == 1) {
            Files.createSymbolicLink(link, link.getParent().relativize(root.resolve("src/a")));
        } else {
            Files.createSymbolicLink(link, Path.of("/etc/hostname")); // escapes the root: refused
        }
        links.add(l);
        return new Step("symlink " + l, List.of());
    }

    private Step generatedFolder() throws IOException {
        Path gen = root.resolve("generated");
        if (Files.isDirectory(gen)) {
            try (Stream<Path> s = Files.walk(gen)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            return new Step("remove generated/", List.of());
        }
        for (int i = 0; i < 30; i++) {
            write("generated/G" + i + ".java", content());
        }
        return new Step("add generated/ with 30 files", List.of());
    }

    // ------------------------------------------------------------------ state

    /** What a fresh index of the tree holds: the paths the indexer reads now. */
    Set<String> indexedPaths() {
        return DirectoryIngestor.builder(root).build().scan().files().stream().map(SourceFile::path)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private Expect expect(String token, String path) {
        return new Expect(token, path, indexedPaths().contains(path));
    }

    /** A random regular file of the tree (not a link, not in .git), or null. */
    String pick() throws IOException {
        List<String> files = indexableCandidates();
        return files.isEmpty() ? null : files.get(rnd.nextInt(files.size()));
    }

    private List<String> indexableCandidates() throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> !p.startsWith(".git/") && !p.endsWith(".gitignore"))
                    .sorted().toList();
        }
    }

    private String tokenOf(String p) throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("zq[a-z]{4}").matcher(Files.readString(root
                .resolve(p)));
        return m.find() ? m.group() : null;
    }

    private List<String> trackedFiles() throws IOException {
        return indexableCandidates();
    }

    // ------------------------------------------------------------------ content

    private String newPath(String dir) {
        int n = fileCounter++;
        return rnd.nextInt(6) == 0 ? dir + "/Notes" + n + ".md" : dir + "/C" + n + ".java";
    }

    String token() {
        int n = tokenCounter++;
        char[] c = new char[4];
        for (int i = 3; i >= 0; i--) {
            c[i] = (char) ('a' + n % 26);
            n /= 26;
        }
        return "zq" + new String(c);
    }

    private String words(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[rnd.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private String content() {
        return content(token());
    }

    private String content(String token) {
        int id = rnd.nextInt(1000);
        return "package churn.p" + id % 7 + ";\n\n/** " + words(6) + " " + token + ". */\npublic final class K" + id
                + " {\n\n    /** " + words(5) + ". */\n    public int " + WORDS[rnd.nextInt(WORDS.length)] + id
                + "(int x) {\n        return x + " + id + ";\n    }\n\n    public String " + WORDS[rnd.nextInt(
                WORDS.length)] + "Name() {\n        return \"" + words(3) + "\";\n    }\n}\n";
    }

    private String markdown() {
        return markdown(token());
    }

    private String markdown(String token) {
        return "# " + words(2) + "\n\n" + words(12) + " " + token + ".\n\n## " + words(2) + "\n\n" + words(20) + ".\n";
    }

    private void writeIgnores() throws IOException {
        Files.writeString(root.resolve(".gitignore"), String.join("\n", rootIgnore) + "\n");
        Files.createDirectories(root.resolve("src/b"));
        Files.writeString(root.resolve("src/b/.gitignore"), String.join("\n", nestedIgnore) + "\n");
    }

    void write(String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", root.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new UncheckedIOException(new IOException("git " + String.join(" ", args) + " failed: " + out));
        }
    }
}
