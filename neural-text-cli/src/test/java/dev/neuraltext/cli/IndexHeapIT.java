package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code index} in a JVM with too small a heap for the folder is refused after the scan, naming the option, instead of
 * failing with an {@code OutOfMemoryError} halfway; the index folder is left as it was. A real {@code java -Xmx} process.
 */
class IndexHeapIT {

    @TempDir
    Path tmp;

    @Test
    void aHeapTooSmallForTheFolderIsRefusedEarlyNamingXmx() throws Exception {
        Path root = tmp.resolve("big");
        StringBuilder method = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            method.append("    int field").append(i).append(" = compute(").append(i).append(");\n");
        }
        for (int f = 0; f < 120; f++) { // about 15 MiB of Java source
            StringBuilder file = new StringBuilder("package big;\n\nclass C" + f + " {\n");
            for (int m = 0; m < 10; m++) {
                file.append("  void m").append(m).append("() {\n").append(method).append("  }\n");
            }
            Files.createDirectories(root.resolve("src"));
            Files.writeString(root.resolve("src/C" + f + ".java"), file.append("}\n"));
        }
        Path index = tmp.resolve("ix");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m", "-jar", Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar")
                        .toAbsolutePath().toString(), "index", root.toString(), "--no-dense", "--index",
                index.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("neural-text index: indexing 120 files (")
                .contains("this JVM may use at most 48 MiB: nothing was indexed and the index is unchanged")
                .contains("JAVA_OPTS=-Xmx").doesNotContain("OutOfMemoryError").doesNotContain("\tat ");
        assertThat(Files.exists(index.resolve("CURRENT"))).as("no generation was written").isFalse();
    }
}
