package dev.neuraltext.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @TempDir
    Path dir;

    @Test
    void writesAndReplacesLeavingNoTemporaryFile() throws IOException {
        Path file = dir.resolve("sub/report.md");
        AtomicFiles.writeString(file, "first");
        AtomicFiles.writeString(file, "second, longer");
        assertThat(Files.readString(file)).isEqualTo("second, longer");
        assertThat(names(file.getParent())).containsExactly("report.md");
    }

    @Test
    void aFailingWriterLeavesTheOldContentAndNoTemporaryFile() throws IOException {
        Path file = dir.resolve("manifest");
        AtomicFiles.writeString(file, "old");
        assertThatThrownBy(() -> AtomicFiles.write(file, out -> {
            out.write("half of the new".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        })).isInstanceOf(IOException.class).hasMessage("disk full");
        assertThat(Files.readString(file)).isEqualTo("old");
        assertThat(names(dir)).containsExactly("manifest");
    }

    @Test
    void nullArgumentsNameTheParameter() {
        assertThatThrownBy(() -> AtomicFiles.write(null, out -> { })).isInstanceOf(NullPointerException.class)
                .hasMessage("file");
        assertThatThrownBy(() -> AtomicFiles.writeString(dir.resolve("x"), null))
                .isInstanceOf(NullPointerException.class).hasMessage("text");
    }

    private static Stream<String> namesStream(Path d) throws IOException {
        return Files.list(d).map(p -> p.getFileName().toString()).sorted();
    }

    private static java.util.List<String> names(Path d) throws IOException {
        try (Stream<String> s = namesStream(d)) {
            return s.collect(java.util.stream.Collectors.toList());
        }
    }
}
