package dev.neuraltext.store;

import dev.neuraltext.chunk.ChunkInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The writer process of {@link CrashConsistencyTest}: saves round after round into one folder until it is killed.
 * Round {@code n} holds chunks {@code r<n>-c<i>} and an attachment naming {@code n} and the chunk count, so that a
 * loader can tell which round it got and whether store and attachment agree. Prints "saving n" and "saved n".
 */
final class SaveLoop {

    static final String ATTACHMENT = "round.txt";

    private SaveLoop() {
    }

    static InMemoryCaseStore round(int n) {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        List<IndexedCase> cases = new ArrayList<>();
        int count = 200 + (n % 5) * 60;
        for (int i = 0; i < count; i++) {
            cases.add(new IndexedCase(ChunkInput.of("r" + n + "-c" + i, ("round " + n + " chunk " + i
                    + " retry backoff jitter timeout ").repeat(20)), null, null));
        }
        s.upsert(cases);
        return s;
    }

    static byte[] attachment(int n, int count) {
        return (n + "\n" + count + "\n").getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        while (true) {
            n++;
            InMemoryCaseStore s = round(n);
            System.out.println("saving " + n);
            System.out.flush();
            s.save(dir, s.fingerprint(), Map.of(ATTACHMENT, attachment(n, (int) s.count(
                    dev.neuraltext.filter.PayloadFilter.all()))));
            System.out.println("saved " + n);
            System.out.flush();
        }
    }
}
