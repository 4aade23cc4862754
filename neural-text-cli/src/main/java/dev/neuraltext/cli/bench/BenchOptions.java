package dev.neuraltext.cli.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** Option parsing shared by the benchmarks: the default dataset and checked numbers. Stateless. */
final class BenchOptions {

    /** The default BEIR dataset, relative to the repository root. */
    static final String DEFAULT_DATASET = "../shared/bench/datasets/commons-lang";

    private BenchOptions() {
    }

    /** {@code value} as a positive int ({@code _} and {@code ,} allowed as separators), or an error naming the option. */
    static int positive(String value, String option) {
        int n = parse(value.replace("_", "").replace(",", ""), value, option);
        if (n <= 0) {
            throw new IllegalArgumentException(option + " must be > 0, got " + value);
        }
        return n;
    }

    /** {@code value} as a non-negative int, or an error naming the option. */
    static int nonNegative(String value, String option) {
        int n = parse(value, value, option);
        if (n < 0) {
            throw new IllegalArgumentException(option + " must be >= 0, got " + value);
        }
        return n;
    }

    private static int parse(String digits, String value, String option) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + value + "'", e);
        }
    }

    /** The default dataset, looked up from the working directory and its parents (repo root or a module). */
    static Path defaultDataset() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve(DEFAULT_DATASET).normalize();
            if (Files.isRegularFile(candidate.resolve("corpus.jsonl"))) {
                return candidate;
            }
        }
        return dir.resolve(DEFAULT_DATASET).normalize();
    }
}
