package dev.neuraltext.qdrant;

import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faults a {@link FakeQdrant} injects, by the 1-based number of a call among all the calls it receives: the way a
 * client sees a server fail. Numbering every call lets a test walk a fault through each call of an index in turn.
 * Thread-safe.
 */
final class FaultPlan {

    /**
     * What happens to one call: answered with {@code status} (none: served normally), after doing its work when
     * {@code applied}; {@code loseState} first drops every collection, as a restart without persistence does.
     */
    record Fault(Status status, boolean applied, boolean loseState) {
    }

    /** What a client reads while the server process is down. */
    static final Status DOWN = Status.UNAVAILABLE.withDescription("io exception: Connection refused (restarting)");

    private final Map<Integer, Fault> byCall = new ConcurrentHashMap<>();

    /** Calls {@code from} to {@code from + times - 1} fail with {@code status} before doing anything. */
    FaultPlan failCalls(int from, int times, Status status) {
        for (int i = 0; i < times; i++) {
            byCall.put(from + i, new Fault(status, false, false));
        }
        return this;
    }

    /** Call {@code n} is done, then answered with {@code status}: a deadline passed after the write, an answer lost. */
    FaultPlan applyThenFail(int n, Status status) {
        byCall.put(n, new Fault(status, true, false));
        return this;
    }

    /**
     * The server restarts before call {@code n}: calls {@code n} to {@code n + downCalls - 1} find it down
     * ({@link #DOWN}); call {@code n + downCalls} is served by the restarted server, which kept its collections
     * (persistence) or lost them (none).
     */
    FaultPlan restartBefore(int n, int downCalls, boolean keepState) {
        failCalls(n, downCalls, DOWN);
        if (!keepState) {
            byCall.put(n + downCalls, new Fault(null, false, true));
        }
        return this;
    }

    void clear() {
        byCall.clear();
    }

    /** The fault of call {@code n}, or null. */
    Fault at(int n) {
        return byCall.get(n);
    }
}
