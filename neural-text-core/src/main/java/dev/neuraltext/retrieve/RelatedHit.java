package dev.neuraltext.retrieve;

import dev.neuraltext.search.SearchHit;
import java.util.List;
import java.util.Objects;

/**
 * One hit of {@link RelatedCode}: a chunk, how it relates to the target, and the names that link the two.
 *
 * @param hit      the chunk, as a search hit: its {@code score} is the related evidence normalised to (0, 1] (the
 *                 best hit of the answer has 1), its {@code legs} are empty
 * @param relation how it belongs with the target
 * @param names    the names that link it: the target's definitions it names, or for {@link Relation#USES} the
 *                 definition's name that the target uses; empty for a twin test found by its file name alone
 */
public record RelatedHit(SearchHit hit, Relation relation, List<String> names) {

    /** Validates and copies. */
    public RelatedHit {
        Objects.requireNonNull(hit, "hit");
        Objects.requireNonNull(relation, "relation");
        names = List.copyOf(names);
    }

    /** The hit's file ({@code path} metadata, or its id). */
    public String path() {
        return hit.metadata().getOrDefault(dev.neuraltext.chunk.ChunkMetadata.PATH, hit.id());
    }
}
