package dev.neuraltext.treesitter;

import java.util.Objects;
import org.treesitter.TSNode;
import org.treesitter.TSTree;

/**
 * A file's syntax tree and where its nodes lie in the file. The parser may have read a few characters that are not
 * in the file ({@link LuaScannerReset}'s comment): offsets past them are moved back, and the nodes made of them are
 * {@linkplain #isInserted inserted} and belong to no definition. Immutable; holds the tree, whose native memory the
 * binding frees once neither it nor a node of it is reachable.
 */
final class ParsedSource {

    private final TSTree tree;
    private final int insertedAt;
    private final int insertedChars;

    /**
     * @param tree          the tree of the text the parser read, as UTF-16LE
     * @param insertedAt    the file's character index where the parser's text had characters of its own
     * @param insertedChars how many, 0 when the parser read the file as it is
     */
    ParsedSource(TSTree tree, int insertedAt, int insertedChars) {
        this.tree = Objects.requireNonNull(tree, "tree");
        if (insertedAt < 0 || insertedChars < 0) {
            throw new IllegalArgumentException("inserted " + insertedChars + " characters at " + insertedAt);
        }
        this.insertedAt = insertedAt;
        this.insertedChars = insertedChars;
    }

    /** A tree of the file as it is. */
    static ParsedSource of(TSTree tree) {
        return new ParsedSource(tree, 0, 0);
    }

    TSNode root() {
        return tree.getRootNode();
    }

    /** The file's character index where {@code node} starts. */
    int start(TSNode node) {
        return toFile(node.getStartByte() / 2);
    }

    /** The file's character index where {@code node} ends (exclusive). */
    int end(TSNode node) {
        return toFile(node.getEndByte() / 2);
    }

    /** Whether {@code node} is made only of characters that are not in the file. */
    boolean isInserted(TSNode node) {
        if (insertedChars == 0) {
            return false;
        }
        int from = node.getStartByte() / 2;
        int to = node.getEndByte() / 2;
        return from >= insertedAt && to <= insertedAt + insertedChars && to > from;
    }

    /** The character index where the inserted characters start, in the file and in the parser's text alike. */
    int insertedAt() {
        return insertedAt;
    }

    private int toFile(int parsed) {
        if (parsed <= insertedAt) {
            return parsed;
        }
        return Math.max(insertedAt, parsed - insertedChars);
    }
}
