package dev.neuraltext.cli.bench;

import java.nio.file.Path;

/** Option parsing shared by the benchmarks: the required dataset and checked numbers. Stateless. */
final class BenchOptions {

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

    /**
     * {@code dataset}, which {@code option} must have given: a benchmark has no default data set.
     *
     * @throws IllegalArgumentException naming the option when it was not given
     */
    static Path required(Path dataset, String option) {
        if (dataset == null) {
            throw new IllegalArgumentException(option + " is required: a BEIR dataset folder (corpus.jsonl, "
                    + "queries.jsonl, qrels/test.tsv)");
        }
        return dataset;
    }
}
