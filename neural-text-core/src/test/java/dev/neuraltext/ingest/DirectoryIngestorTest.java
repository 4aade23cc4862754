package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryIngestorTest {

    @TempDir
    Path tmp;

    private Path tree() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        write(root, "src/main/java/com/acme/App.java", "package com.acme;\n/** The app. */\nclass App { void run() {} }\n");
        write(root, "src/test/java/com/acme/AppTest.java", "class AppTest { void t() {} }\n");
        write(root, "lib/FooTest.java", "class FooTest {}\n");
        write(root, "README.md", "# Readme\nHello.\n");
        write(root, "notes.txt", "some notes\n");
        write(root, "docs/guide.md", "# Guide\nText.\n");
        write(root, "generated/Gen.java", "class Gen {}\n");
        write(root, "docs/secret.txt", "secret\n");
        write(root, ".gitignore", "generated/\nsecret.txt\n");
        write(root, ".hidden/x.md", "# x\n");
        write(root, "tool.exe", "MZ");
        write(root, "big.txt", "word ".repeat(400));
        Files.write(root.resolve("data.txt"), new byte[] {'a', 0, 'b', 0});
        Path outside = write(tmp, "outside/leak.md", "# secret outside the root\n");
        Files.createSymbolicLink(root.resolve("leak.md"), outside);
        Files.createSymbolicLink(root.resolve("readme-link.md"), root.resolve("README.md"));
        return root;
    }

    private static Path write(Path root, String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void aNeuralTextIgnoreFileIsReadLikeAGitignoreAfterItAndWithoutIt() throws IOException {
        Path root = tree();
        write(root, ".neural-textignore", "docs/\n!generated/\n");
        write(root, "src/main/java/com/acme/.neural-textignore", "App.java\n");
        ScanResult scan = DirectoryIngestor.builder(root).maxFileBytes(1000).build().scan();
        // docs/ is left out, generated/ (git ignores it) taken back, App.java left out by the nested file
        assertThat(scan.files()).extracting(SourceFile::path)
                .containsExactly("README.md", "generated/Gen.java", "notes.txt");
        Map<String, SkippedFile> skipped = new java.util.TreeMap<>();
        scan.skipped().forEach(s -> skipped.put(s.path(), s));
        assertThat(skipped.get("docs/").reason()).isEqualTo(SkipReason.EXCLUDED);
        assertThat(skipped.get("docs/").detail()).isEqualTo(".neural-textignore");
        assertThat(skipped.get("src/main/java/com/acme/App.java").reason()).isEqualTo(SkipReason.EXCLUDED);
        // honoured when .gitignore files are not
        ScanResult noGit = DirectoryIngestor.builder(root).maxFileBytes(1000).respectGitignore(false).build().scan();
        assertThat(noGit.files()).extracting(SourceFile::path).contains("generated/Gen.java")
                .doesNotContain("docs/guide.md", "src/main/java/com/acme/App.java");
    }

    @Test
    void skipRules() throws IOException {
        Path root = tree();
        ScanResult scan = DirectoryIngestor.builder(root).maxFileBytes(1000).exclude("notes.txt").build().scan();

        assertThat(scan.files()).extracting(SourceFile::path)
                .containsExactly("README.md", "docs/guide.md", "src/main/java/com/acme/App.java");
        assertThat(scan.filesByLanguage()).isEqualTo(Map.of("java", 1, "markdown", 2));
        Map<String, SkipReason> reasons = new java.util.TreeMap<>();
        scan.skipped().forEach(s -> reasons.put(s.path(), s.reason()));
        assertThat(reasons).containsEntry(".gitignore", SkipReason.HIDDEN)
                .containsEntry(".hidden/", SkipReason.HIDDEN)
                .containsEntry("generated/", SkipReason.GITIGNORED)
                .containsEntry("docs/secret.txt", SkipReason.GITIGNORED)
                .containsEntry("src/test/", SkipReason.TEST_SOURCE)
                .containsEntry("lib/FooTest.java", SkipReason.TEST_SOURCE)
                .containsEntry("notes.txt", SkipReason.EXCLUDED)
                .containsEntry("tool.exe", SkipReason.UNSUPPORTED_TYPE)
                .containsEntry("big.txt", SkipReason.TOO_LARGE)
                .containsEntry("data.txt", SkipReason.BINARY)
                .containsEntry("leak.md", SkipReason.OUTSIDE_ROOT)
                .containsEntry("readme-link.md", SkipReason.SYMLINK)
                .hasSize(12);
        assertThat(scan.skippedByReason()).containsEntry(SkipReason.HIDDEN, 2).containsEntry(SkipReason.GITIGNORED, 2);
        SourceFile app = scan.files().get(2);
        assertThat(app.language()).isEqualTo("java");
        assertThat(app.contentHash()).hasSize(64);
    }

    @Test
    void withTestsBringsTestSourcesBackAndIncludesNarrow() throws IOException {
        Path root = tree();
        ScanResult all = DirectoryIngestor.builder(root).withTests(true).build().scan();
        assertThat(all.files()).extracting(SourceFile::path).contains("src/test/java/com/acme/AppTest.java",
                "lib/FooTest.java");
        ScanResult onlyJava = DirectoryIngestor.builder(root).withTests(true).include("*.java").build().scan();
        assertThat(onlyJava.files()).extracting(SourceFile::path).containsExactly("lib/FooTest.java",
                "src/main/java/com/acme/App.java", "src/test/java/com/acme/AppTest.java");
        ScanResult noGitignore = DirectoryIngestor.builder(root).respectGitignore(false).build().scan();
        assertThat(noGitignore.files()).extracting(SourceFile::path).contains("generated/Gen.java");
    }

    @Test
    void extensionlessTextFilesAndBuildFilesAreIndexedAsText() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("agents"));
        write(root, "Dockerfile", "FROM eclipse-temurin:17\nRUN ./mvnw package\n");
        write(root, "Makefile", "build:\n\tmvn -B verify\n");
        write(root, "scripts/release", "#!/usr/bin/env bash\nset -euo pipefail\necho releasing\n");
        write(root, "scripts/report", "#!/usr/bin/env python3\nprint('report')\n");
        write(root, "scripts/deploy", "#!/bin/sh\necho deploy\n");
        write(root, "CODEOWNERS", "* @team\n");
        write(root, "pom.xml", "<project><artifactId>demo</artifactId></project>\n");
        write(root, "build.gradle", "plugins { id 'java' }\n");
        write(root, "app.properties", "retry.max=3\n");
        write(root, "config.yaml", "retry:\n  max: 3\n");
        Files.write(root.resolve("blob"), new byte[] {(byte) 0xC3, (byte) 0x28, 'x'}); // not UTF-8
        Files.write(root.resolve("program"), new byte[] {0x7F, 'E', 'L', 'F', 0, 0}); // a binary
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        ScanResult scan = ingestor.scan();
        Map<String, String> languages = new java.util.TreeMap<>();
        scan.files().forEach(f -> languages.put(f.path(), f.language()));
        assertThat(languages).containsExactlyInAnyOrderEntriesOf(Map.of("Dockerfile", "dockerfile",
                "Makefile", "makefile", "scripts/release", "shell", "scripts/report", "python", "scripts/deploy",
                "shell", "CODEOWNERS", "text", "pom.xml", "xml", "build.gradle", "gradle", "app.properties",
                "properties", "config.yaml", "yaml"));
        assertThat(scan.skipped()).extracting(SkippedFile::path, SkippedFile::reason).contains(
                org.assertj.core.groups.Tuple.tuple("blob", SkipReason.UNSUPPORTED_TYPE),
                org.assertj.core.groups.Tuple.tuple("program", SkipReason.BINARY));
        for (SourceFile f : scan.files()) {
            assertThat(ingestor.chunk(f).chunks()).as(f.path()).isNotEmpty()
                    .allSatisfy(c -> assertThat(c.metadata()).containsEntry("symbolType", "text"));
        }
        SourceFile release = scan.files().stream().filter(f -> f.path().equals("scripts/release")).findFirst()
                .orElseThrow();
        assertThat(ingestor.chunk(release).chunks().get(0).text()).contains("echo releasing");
    }

    @Test
    void chunksCarryRelativePathAndLanguage() throws IOException {
        Path root = tree();
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        SourceFile app = ingestor.scan().files().stream().filter(f -> f.language().equals("java")).findFirst()
                .orElseThrow();
        DirectoryIngestor.FileChunks fc = ingestor.chunk(app);
        assertThat(fc.chunks()).extracting(ChunkInput::id).containsExactly(
                "src/main/java/com/acme/App.java#App", "src/main/java/com/acme/App.java#App.run()");
        assertThat(fc.chunks().get(1).metadata()).containsEntry("path", "src/main/java/com/acme/App.java")
                .containsEntry("language", "java").containsEntry("package", "com.acme");
        assertThat(fc.contentHash()).isEqualTo(app.contentHash());
    }

    @Test
    void rejectsMissingRootAndBadGlobs() {
        assertThatThrownBy(() -> DirectoryIngestor.builder(tmp.resolve("nope")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be an existing directory");
        assertThatThrownBy(() -> DirectoryIngestor.builder(tmp).include("{a,b"))
                .hasMessageContaining("unclosed '{'");
    }

    @Test
    @org.junit.jupiter.api.Timeout(20)
    void aFifoIsSkippedWithoutBlockingTheScan() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("fifo"));
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Path fifo = root.resolve("pipe.txt");
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.abort("mkfifo is not available: " + e.getMessage());
            return;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo failed");

        ScanResult scan = DirectoryIngestor.builder(root).build().scan();

        assertThat(scan.files()).extracting(SourceFile::path).containsExactly("a.txt");
        assertThat(scan.skipped()).filteredOn(s -> s.path().equals("pipe.txt")).singleElement()
                .satisfies(s -> assertThat(s.reason()).isEqualTo(SkipReason.UNSUPPORTED_TYPE));
    }

    @Test
    @org.junit.jupiter.api.Timeout(20)
    void symlinkLoopsAreSkippedAndNeverFollowed() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("loops"));
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Files.createSymbolicLink(root.resolve("x.txt"), root.resolve("y.txt"));
        Files.createSymbolicLink(root.resolve("y.txt"), root.resolve("x.txt"));
        Files.createSymbolicLink(root.resolve("self"), root);

        ScanResult scan = DirectoryIngestor.builder(root).build().scan();

        assertThat(scan.files()).extracting(SourceFile::path).containsExactly("a.txt");
        assertThat(scan.skipped()).extracting(SkippedFile::path).containsExactlyInAnyOrder("self", "x.txt", "y.txt");
        assertThat(scan.skipped()).filteredOn(s -> s.path().equals("x.txt")).singleElement()
                .satisfies(s -> assertThat(s.reason()).isEqualTo(SkipReason.UNREADABLE));
    }

    @Test
    void aDeviceFileIsSkippedAsNotARegularFile() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("dev"));
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Path dev = root.resolve("null.txt");
        Process mk = new ProcessBuilder("mknod", dev.toString(), "c", "1", "3").redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0,
                "mknod needs root: " + new String(mk.getInputStream().readAllBytes(), StandardCharsets.UTF_8));

        ScanResult scan = DirectoryIngestor.builder(root).build().scan();

        assertThat(scan.files()).extracting(SourceFile::path).containsExactly("a.txt");
        assertThat(scan.skipped()).filteredOn(s -> s.path().equals("null.txt")).singleElement()
                .satisfies(s -> assertThat(s.reason()).isEqualTo(SkipReason.UNSUPPORTED_TYPE));
    }

    @Test
    void aFileNameThatIsNotValidUtf8IsIndexedUnderItsReplacementCharactersPath() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("names"));
        Files.writeString(root.resolve("a.txt"), "alpha\n");
        Process mk = new ProcessBuilder("sh", "-c", "printf 'bad name\\n' > \"$(printf 'b\\377\\376.txt')\"")
                .directory(root.toFile()).redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "cannot create a non-UTF-8 name");
        try (var listing = Files.list(root)) {
            org.junit.jupiter.api.Assumptions.assumeTrue(listing.count() == 2, "the file system refused the name");
        }

        IndexUpdate u = IncrementalIndexer.builder(DirectoryIngestor.builder(root).build()).build()
                .update(IndexManifest.empty(""), new IncrementalIndexerTest.RecordingSink());

        assertThat(u.scan().files().size() + u.scan().skipped().size()).isEqualTo(2);
        assertThat(u.manifest().files()).containsKey("a.txt");
        // the JDK keeps the raw bytes to read the file and shows the invalid ones as U+FFFD in the path
        assertThat(u.manifest().files()).hasSize(2).containsKey("b\ufffd\ufffd.txt");
    }
}
