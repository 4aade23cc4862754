package dev.neuraltext.bm25;

import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One {@link Bm25Index} per corpus (collection) name: created on demand, listed, dropped.
 *
 * <p>New indexes come from the factory given at construction ({@link #create()} uses
 * {@code Bm25Index.builder().build()}, i.e. the documented defaults). Thread-safe: concurrent
 * {@link #getOrCreate(String)} calls for the same name create exactly one index.
 */
public final class Bm25IndexRegistry {

    private final ConcurrentHashMap<String, Bm25Index> indexes = new ConcurrentHashMap<>();
    private final Supplier<Bm25Index> factory;

    /** A registry whose indexes come from {@code factory} (called once per new name, must not return null). */
    public Bm25IndexRegistry(Supplier<Bm25Index> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** A registry of indexes with the default configuration. */
    public static Bm25IndexRegistry create() {
        return new Bm25IndexRegistry(() -> Bm25Index.builder().build());
    }

    /** The index for {@code name}, created if absent. */
    public Bm25Index getOrCreate(String name) {
        Checks.notBlank(name, "name");
        return indexes.computeIfAbsent(name, n -> Objects.requireNonNull(factory.get(), "factory returned null"));
    }

    /** The index for {@code name}, if it exists. */
    public Optional<Bm25Index> get(String name) {
        Checks.notBlank(name, "name");
        return Optional.ofNullable(indexes.get(name));
    }

    /** The names of the existing indexes, sorted. */
    public List<String> names() {
        return indexes.keySet().stream().sorted().toList();
    }

    /** Removes the index for {@code name}; returns whether it existed. Searches still holding it keep working. */
    public boolean drop(String name) {
        Checks.notBlank(name, "name");
        return indexes.remove(name) != null;
    }
}
