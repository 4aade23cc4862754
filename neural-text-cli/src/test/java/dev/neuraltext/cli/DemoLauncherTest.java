package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The "Ask more" line of {@code demo} names the command that started it: the installed launcher when there is one. */
class DemoLauncherTest {

    @Test
    void theInstalledLauncherIsNamedByItsPathRelativeToTheWorkingFolder() {
        Path home = Path.of("").toAbsolutePath().resolve("target/neural-text");
        System.setProperty("app.home", home.toString());
        System.setProperty("app.name", "neural-text");
        try {
            assertThat(DemoCommand.launcher()).isEqualTo(Path.of("target", "neural-text", "bin", "neural-text").toString());
        } finally {
            System.clearProperty("app.home");
            System.clearProperty("app.name");
        }
    }

    @Test
    void withoutTheLauncherItIsTheJarOrTheCommandName() {
        assertThat(DemoCommand.launcher()).satisfiesAnyOf(
                l -> assertThat(l).startsWith("java -jar ").endsWith(".jar"),
                l -> assertThat(l).isEqualTo("neural-text"));
    }
}
