package dev.neuraltext.qdrant;

import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the commons-lang benchmark: system property {@code nt.commonsLang}, else the shared bench folder. */
final class CommonsLang {

    private CommonsLang() {
    }

    /** The dataset folder, or null when it is not on this machine. */
    static Path dir() {
        String configured = System.getProperty("nt.commonsLang");
        Path[] candidates = configured != null
                ? new Path[] {Path.of(configured)}
                : new Path[] {Path.of("../../shared/bench/datasets/commons-lang"),
                    Path.of("/work/shared/bench/datasets/commons-lang")};
        for (Path p : candidates) {
            if (Files.isRegularFile(p.resolve("corpus.jsonl"))) {
                return p;
            }
        }
        return null;
    }

    static EvalDataset load() {
        Path dir = dir();
        if (dir == null) {
            throw new IllegalStateException("commons-lang benchmark not found; set -Dnt.commonsLang=<dir>");
        }
        return BeirDataset.load(dir);
    }
}
