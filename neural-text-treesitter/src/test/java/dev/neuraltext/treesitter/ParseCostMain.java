package dev.neuraltext.treesitter;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.JavaSourceChunker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.treesitter.TSLanguage;

/**
 * Parse and chunk cost per MB of source (a measurement, run by hand under the bench lock; not a test):
 * {@code ParseCostMain <commons-lang-java-folder> [<name>=<folder>:<language> ...]}. For Java it compares JavaParser
 * (JavaSourceChunker, what Java uses) with tree-sitter-java's parse alone; for the other folders it times
 * SyntaxTreeChunker (parse + chunk). Each is run 3 times after a warm-up round; the best round is printed.
 */
public final class ParseCostMain {

    private ParseCostMain() {
    }

    public static void main(String[] args) throws IOException {
        List<String> java = read(Path.of(args[0]), "java");
        double mb = megabytes(java);
        JavaSourceChunker javaParser = new JavaSourceChunker();
        TSLanguage tsJava = new org.treesitter.TreeSitterJava();
        report("commons-lang JavaParser chunker", mb, java.size(), () -> java.forEach(t -> javaParser.chunk(doc(t, "java"))));
        report("commons-lang tree-sitter-java parse", mb, java.size(),
                () -> java.forEach(t -> Grammars.parse(tsJava, t, TimeUnit.SECONDS.toNanos(60))));
        for (int i = 1; i < args.length; i++) {
            String[] nameRest = args[i].split("=", 2);
            int colon = nameRest[1].lastIndexOf(':');
            String language = nameRest[1].substring(colon + 1);
            List<String> texts = read(Path.of(nameRest[1].substring(0, colon)), language);
            SyntaxTreeChunker chunker = SyntaxTreeChunker.create();
            report(nameRest[0] + " SyntaxTreeChunker (" + language + ")", megabytes(texts), texts.size(),
                    () -> texts.forEach(t -> chunker.chunk(doc(t, language))));
        }
    }

    private static void report(String what, double mb, int files, Runnable round) {
        round.run();
        long best = Long.MAX_VALUE;
        for (int r = 0; r < 3; r++) {
            long t0 = System.nanoTime();
            round.run();
            best = Math.min(best, System.nanoTime() - t0);
        }
        double ms = best / 1e6;
        System.out.printf("%-55s %5d files %6.2f MB %8.1f ms %8.1f ms/MB%n", what, files, mb, ms, ms / mb);
    }

    private static ExtractionResult doc(String text, String language) {
        return new ExtractionResult("f", text, Map.of(ChunkMetadata.PATH, "f", ChunkMetadata.LANGUAGE, language),
                Map.of());
    }

    private static double megabytes(List<String> texts) {
        return texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum() / 1e6;
    }

    private static List<String> read(Path root, String language) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                if (language.equals(DirectoryIngestor.languageOf(p.getFileName().toString()))) {
                    out.add(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }
}
