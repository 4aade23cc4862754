package dev.neuraltext.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small source tree to index, and a way to run the CLI capturing its output. */
final class CliFixture {

    private CliFixture() {
    }

    record Result(int exitCode, String out, String err) {
    }

    static synchronized Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = NeuralTextCli.run(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    static Path tree(Path root) throws IOException {
        write(root, "src/main/java/com/acme/retry/RetryPolicy.java", """
                package com.acme.retry;

                /** Decides how long to wait between attempts of a failed call. */
                public final class RetryPolicy {

                    private final long baseMillis;

                    public RetryPolicy(long baseMillis) {
                        this.baseMillis = baseMillis;
                    }

                    /**
                     * Exponential backoff: the delay doubles with every attempt.
                     *
                     * @param attempt the 0-based attempt number
                     * @return milliseconds to wait
                     */
                    public long backoffDelay(int attempt) {
                        return baseMillis << attempt;
                    }
                }
                """);
        write(root, "src/main/java/com/acme/http/HttpClientConfig.java", """
                package com.acme.http;

                /** Connection settings of the HTTP client. */
                public record HttpClientConfig(String host, int port, int timeoutSeconds) {

                    /** The base URL built from host and port. */
                    public String baseUrl() {
                        return "https://" + host + ":" + port;
                    }
                }
                """);
        write(root, "docs/guide.md", """
                ---
                title: Guide
                tags: [retry, http]
                ---
                # Guide

                ## Retries

                Failed calls are retried with exponential backoff and jitter.

                ## Timeouts

                Every request has a timeout in seconds.
                """);
        write(root, "src/test/java/com/acme/retry/RetryPolicyTest.java", """
                package com.acme.retry;
                class RetryPolicyTest { void backoffDelayDoubles() { } }
                """);
        return root;
    }

    static Path write(Path root, String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }
}
