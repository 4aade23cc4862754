package com.example.orders;

/** A token bucket: callers take one token per request, and tokens refill at a fixed rate per second. */
public final class RateLimiter {

    private final double permitsPerSecond;
    private double tokens;
    private long lastRefillNanos;

    public RateLimiter(double permitsPerSecond) {
        this.permitsPerSecond = permitsPerSecond;
        this.tokens = permitsPerSecond;
        this.lastRefillNanos = System.nanoTime();
    }

    /** Takes a token when one is available; returns false when the caller must slow down. */
    public synchronized boolean tryAcquire() {
        refill();
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    private void refill() {
        long now = System.nanoTime();
        tokens = Math.min(permitsPerSecond, tokens + (now - lastRefillNanos) / 1e9 * permitsPerSecond);
        lastRefillNanos = now;
    }
}
