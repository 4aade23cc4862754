package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the staleness check sees: .gitignore files, nanosecond times, and when a tree is racily clean. */
class TreeStampTest {

    @TempDir
    Path root;

    @Test
    void gitignoreFilesCountOtherHiddenFilesDoNot() throws Exception {
        Files.writeString(root.resolve("A.java"), "class A {}");
        long before = TreeStamp.of(root, root.resolve(".neural-text"));
        Files.writeString(root.resolve(".env"), "SECRET=1");
        assertThat(TreeStamp.of(root, root.resolve(".neural-text"))).isEqualTo(before);
        Files.writeString(root.resolve(".gitignore"), "A.java\n");
        assertThat(TreeStamp.of(root, root.resolve(".neural-text"))).isNotEqualTo(before);
    }

    @Test
    void aSameSizeRewriteWithinTheSameMillisecondStillMovesTheStamp() throws Exception {
        Path a = root.resolve("A.java");
        Files.writeString(a, "class A {}");
        Instant t = Instant.parse("2026-01-01T00:00:00.000000100Z");
        Files.setLastModifiedTime(a, FileTime.from(t));
        long first = TreeStamp.of(root, root.resolve(".neural-text"));
        Files.writeString(a, "class B {}");
        Files.setLastModifiedTime(a, FileTime.from(t.plusNanos(200)));
        assertThat(TreeStamp.of(root, root.resolve(".neural-text"))).isNotEqualTo(first);
    }

    @Test
    void aTreeModifiedJustNowIsRacyOneModifiedLongAgoOrInTheFarFutureIsNot() throws Exception {
        Path a = root.resolve("A.java");
        Files.writeString(a, "class A {}");
        assertThat(TreeStamp.scan(root, root.resolve(".neural-text")).racy()).isTrue();
        Files.setLastModifiedTime(a, FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
        assertThat(TreeStamp.scan(root, root.resolve(".neural-text")).racy()).isFalse();
        Files.setLastModifiedTime(a, FileTime.from(Instant.now().plus(1, ChronoUnit.DAYS)));
        assertThat(TreeStamp.scan(root, root.resolve(".neural-text")).racy()).isFalse();
    }
}
