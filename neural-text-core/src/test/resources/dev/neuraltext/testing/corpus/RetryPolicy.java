package com.example.orders;

/** Decides how long to wait between attempts of a failed remote call, and whether to try again at all. */
public final class RetryPolicy {

    private final int maxAttempts;

    public RetryPolicy(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** Exponential backoff: the delay in milliseconds doubles with every attempt. */
    public long backoffDelay(int attempt) {
        return 100L << attempt;
    }

    /** Whether another attempt is allowed after this failure; bad arguments are never retried. */
    public boolean shouldRetry(int attempt, Throwable failure) {
        return attempt < maxAttempts && !(failure instanceof IllegalArgumentException);
    }
}
