package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DemoFirstRunNoteTest {

    @Test
    void theEstimateGrowsWithTheBytesAndShrinksWithTheCores() {
        double perCore = DemoCommand.EMBEDDED_BYTES_PER_CORE_SECOND;
        assertThat(DemoCommand.firstRunNote(3, 10_000, 2)).contains("3 files").contains("less than a minute")
                .contains("2 cores").contains("--no-dense");
        assertThat(DemoCommand.firstRunNote(150, (long) (perCore * 2 * 120), 2)).contains("about 2 minutes");
        assertThat(DemoCommand.firstRunNote(150, (long) (perCore * 4 * 120), 4)).contains("about 2 minutes");
        assertThat(DemoCommand.firstRunNote(150, (long) (perCore * 2 * 120), 1)).contains("about 4 minutes");
        assertThat(DemoCommand.firstRunNote(10, (long) (perCore * 60), 1)).contains("about 1 minute on 1 core (");
    }

    @Test
    void oneFileIsOneFile() {
        assertThat(DemoCommand.firstRunNote(1, 1, 1)).startsWith("First run: indexing 1 file (0.0 MB)");
    }
}
