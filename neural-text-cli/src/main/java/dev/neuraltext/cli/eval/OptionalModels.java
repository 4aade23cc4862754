package dev.neuraltext.cli.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.onnx.OnnxCrossEncoderReranker;
import dev.neuraltext.onnx.OnnxSpladeEncoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Loads the optional SPLADE encoder and cross-encoder reranker. A model is given as a folder holding
 * {@code model.onnx} (or exactly one {@code .onnx} file) and {@code tokenizer.json}, or as the {@code .onnx} file
 * itself with {@code tokenizer.json} beside it. What is loaded is added to {@code owned} to be closed after the run.
 */
final class OptionalModels {

    private OptionalModels() {
    }

    static SparseEncoder splade(Path location, List<AutoCloseable> owned) {
        Path[] files = resolve(location, "--splade-model");
        OnnxSpladeEncoder encoder = OnnxSpladeEncoder.builder().modelFile(files[0]).tokenizerFile(files[1])
                .modelName(name(location)).build();
        owned.add(encoder);
        return encoder;
    }

    static Reranker reranker(Path location, List<AutoCloseable> owned) {
        Path[] files = resolve(location, "--reranker-model");
        OnnxCrossEncoderReranker reranker = OnnxCrossEncoderReranker.builder().modelFile(files[0])
                .tokenizerFile(files[1]).modelName(name(location)).build();
        owned.add(reranker);
        return reranker;
    }

    private static String name(Path location) {
        Path dir = Files.isDirectory(location) ? location : location.toAbsolutePath().getParent();
        return dir == null || dir.getFileName() == null ? "model" : dir.getFileName().toString();
    }

    /** {model file, tokenizer file}. */
    private static Path[] resolve(Path location, String option) {
        Path model;
        Path dir;
        if (Files.isDirectory(location)) {
            dir = location;
            model = location.resolve("model.onnx");
            if (!Files.isRegularFile(model)) {
                try (Stream<Path> s = Files.list(location)) {
                    List<Path> onnx = s.filter(p -> p.getFileName().toString().endsWith(".onnx")).sorted().toList();
                    if (onnx.size() != 1) {
                        throw new IllegalArgumentException(option + ": expected model.onnx or exactly one .onnx file "
                                + "in " + location + ", found " + onnx.size());
                    }
                    model = onnx.get(0);
                } catch (IOException e) {
                    throw new NonRetriableNeuralTextException("cannot list " + location, e);
                }
            }
        } else if (Files.isRegularFile(location)) {
            model = location;
            dir = location.toAbsolutePath().getParent();
        } else {
            throw new IllegalArgumentException(option + ": " + location + " does not exist");
        }
        Path tokenizer = dir.resolve("tokenizer.json");
        if (!Files.isRegularFile(tokenizer)) {
            throw new IllegalArgumentException(option + ": no tokenizer.json in " + dir);
        }
        return new Path[] {model, tokenizer};
    }
}
