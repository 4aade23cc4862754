package dev.neuraltext.onnx;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/** Where a model or tokenizer file comes from: a filesystem path or a classpath resource. Internal. */
final class ResourceLocation {

    private final Path path;
    private final ClassLoader loader;
    private final String resource;

    private ResourceLocation(Path path, ClassLoader loader, String resource) {
        this.path = path;
        this.loader = loader;
        this.resource = resource;
    }

    static ResourceLocation file(Path path, String what) {
        if (path == null) {
            throw new NullPointerException(what + " must not be null");
        }
        return new ResourceLocation(path.toAbsolutePath(), null, null);
    }

    static ResourceLocation classpath(ClassLoader loader, String resource, String what) {
        if (resource == null || resource.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank, got '" + resource + "'");
        }
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        ClassLoader cl = loader != null ? loader : ResourceLocation.class.getClassLoader();
        return new ResourceLocation(null, Objects.requireNonNull(cl, "classLoader"), name);
    }

    /** The file name without directories (used to derive a model name). */
    String fileName() {
        String full = path != null ? path.getFileName().toString() : resource;
        int slash = full.lastIndexOf('/');
        return slash >= 0 ? full.substring(slash + 1) : full;
    }

    /** The file name without a trailing {@code .onnx}: the default model name in model ids. */
    String baseName() {
        String name = fileName();
        return name.endsWith(".onnx") ? name.substring(0, name.length() - 5) : name;
    }

    /** Checks a builder was given both a model and a tokenizer. */
    static void requireModelAndTokenizer(ResourceLocation model, ResourceLocation tokenizer) {
        if (model == null) {
            throw new IllegalStateException("a model is required: call modelFile(..) or modelResource(..)");
        }
        if (tokenizer == null) {
            throw new IllegalStateException("a tokenizer is required: call tokenizerFile(..) or tokenizerResource(..)");
        }
    }

    /** The path, or null for a classpath resource. */
    Path path() {
        return path;
    }

    /**
     * Reads the whole file.
     *
     * @throws NonRetriableNeuralTextException naming the file when it is missing or unreadable
     */
    byte[] readAllBytes(String what) {
        if (path != null) {
            try {
                return Files.readAllBytes(path);
            } catch (NoSuchFileException e) {
                throw new NonRetriableNeuralTextException(what + " file not found: " + path, e);
            } catch (IOException e) {
                throw new NonRetriableNeuralTextException("cannot read " + what + " file " + path + ": " + e, e);
            }
        }
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NonRetriableNeuralTextException(what + " file not found: classpath resource '" + resource
                        + "' (is the artifact that ships it on the classpath?)", null);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot read " + what + " " + this + ": " + e, e);
        }
    }

    /** Whether the file exists (without reading it). */
    boolean exists() {
        return path != null ? Files.isRegularFile(path) : loader.getResource(resource) != null;
    }

    @Override
    public String toString() {
        return path != null ? path.toString() : "classpath:" + resource;
    }
}
