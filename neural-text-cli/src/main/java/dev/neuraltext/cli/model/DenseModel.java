package dev.neuraltext.cli.model;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.cli.install.ModelJars;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.onnx.DenseModels;
import java.io.PrintStream;
import java.util.Optional;

/**
 * Loads the dense leg's embedder (one of {@link DenseModels}: a transformer preset on ONNX Runtime or the bundled
 * static model), or says why it cannot. Shared by the
 * CLI commands and the MCP server. Stateless.
 */
public final class DenseModel {

    /**
     * The preset used when {@code --model} is not given: bge-small-en-v1.5, int8 (chosen by measurement), the one the
     * installation bundles.
     */
    public static final String DEFAULT_MODEL = ModelJars.BUNDLED_PRESET;

    /** The {@code --model} help text. */
    public static final String MODEL_HELP = "Dense model preset: bge-small-en-v1.5-q (default), bge-small-en-v1.5, "
            + "all-minilm-l6-v2, all-minilm-l6-v2-q, e5-small-v2, static-code (static word-piece vectors distilled from "
            + "bge-small, no transformer at run time; opt-in, see the README). The installation bundles the default "
            + "and static-code; another preset is its jar copied into the installation's models/ folder (see "
            + "models/README.txt there).";

    private DenseModel() {
    }

    /**
     * {@code preset} checked (null stays null: the default, or the index's own model when searching).
     *
     * @throws IllegalArgumentException naming the option, the value and the known presets (bad input: exit 2)
     */
    public static String checkPreset(String preset) {
        if (preset == null) {
            return null;
        }
        try {
            return DenseModels.checkId(preset);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--model: " + e.getMessage(), e);
        }
    }

    /** The preset an index's dense model id was built with, if it is one. */
    public static Optional<String> presetOf(String modelId) {
        return DenseModels.forModelId(modelId);
    }

    /**
     * The embedder of {@code preset} (null: {@link #DEFAULT_MODEL}), or null (with a note on {@code err}) when the
     * ONNX module, its native library or the model resources are missing: the CLI then carries on with BM25 alone.
     *
     * @throws NonRetriableNeuralTextException saying which jar to add, where and how, when {@code preset} is not
     *                       null and not installed
     */
    public static Embedder loadOrNull(PrintStream err, String preset) {
        requireInstalled(preset); // a model asked for by name, or the index's own: not BM25 alone
        try {
            return ModelJars.load(preset == null ? DEFAULT_MODEL : preset);
        } catch (NoClassDefFoundError e) {
            err.println("note: the ONNX module is not on the class path; continuing with BM25 only");
        } catch (LinkageError | RuntimeException e) {
            err.println("note: the dense model could not be loaded (" + firstLine(e) + "); continuing with BM25 only");
        }
        return null;
    }

    /**
     * Checks that {@code preset} (null: the default, not checked) is part of the installation.
     *
     * @throws NonRetriableNeuralTextException (exit 1) saying which jar to add, where and how
     */
    public static void requireInstalled(String preset) {
        if (preset != null) {
            ModelJars.missing(preset, null).ifPresent(m -> {
                throw new NonRetriableNeuralTextException(m, null);
            });
        }
    }

    /** Closes {@code embedder} when it is closeable; a failure is said on stderr, the run's result stands. */
    public static void close(Embedder embedder) {
        if (embedder instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a model at exit: the run's result stands, but the failure is said, not swallowed
                System.err.println("note: closing the dense model failed (" + firstLine(e) + ")");
            }
        }
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
