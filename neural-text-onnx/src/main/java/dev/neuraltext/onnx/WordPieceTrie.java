package dev.neuraltext.onnx;

import java.util.Arrays;
import java.util.Map;

/**
 * A word-piece vocabulary as a character trie, for the longest vocabulary entry that starts a given stretch of a word
 * in one pass over its characters (what WordPiece's "longest match first" asks for, without building substrings).
 * Edges live in one open-addressing hash table keyed by (node, UTF-16 char). Internal.
 *
 * <p>Thread safety: immutable after construction.
 */
final class WordPieceTrie {

    static final int ROOT = 0;
    /** Returned by {@link #child} when there is no edge. */
    static final int NONE = -1;

    /** Edge keys {@code node << 16 | char}, or -1 for a free slot. */
    private final long[] keys;
    private final int[] targets;
    private final int mask;
    /** The token id ending at each node, or -1. */
    private final int[] ids;

    WordPieceTrie(Map<String, Integer> vocabulary) {
        long chars = 0;
        for (String token : vocabulary.keySet()) {
            chars += token.length();
        }
        // Nodes <= 1 + chars; edges = nodes - 1. A table at most half full keeps probe runs short.
        int capacity = Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, chars * 2)) - 1) << 1;
        keys = new long[capacity];
        Arrays.fill(keys, -1L);
        targets = new int[capacity];
        mask = capacity - 1;
        int[] nodeIds = new int[(int) chars + 1];
        Arrays.fill(nodeIds, -1);
        int nodes = 1;
        for (Map.Entry<String, Integer> e : vocabulary.entrySet()) {
            String token = e.getKey();
            int node = ROOT;
            for (int i = 0; i < token.length(); i++) {
                long key = ((long) node << 16) | token.charAt(i);
                int slot = slot(key);
                if (keys[slot] == -1L) {
                    keys[slot] = key;
                    targets[slot] = nodes++;
                }
                node = targets[slot];
            }
            nodeIds[node] = e.getValue();
        }
        ids = Arrays.copyOf(nodeIds, nodes);
    }

    /** The slot holding {@code key}, or the free slot where it belongs. */
    private int slot(long key) {
        int slot = mix(key) & mask;
        while (keys[slot] != -1L && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }

    /** The node reached from {@code node} over {@code c}, or {@link #NONE}. */
    int child(int node, char c) {
        long key = ((long) node << 16) | c;
        int slot = mix(key) & mask;
        long k;
        while ((k = keys[slot]) != -1L) {
            if (k == key) {
                return targets[slot];
            }
            slot = (slot + 1) & mask;
        }
        return NONE;
    }

    /** The node reached from {@link #ROOT} over all of {@code prefix}, or {@link #NONE}. */
    int walk(String prefix) {
        int node = ROOT;
        for (int i = 0; i < prefix.length() && node != NONE; i++) {
            node = child(node, prefix.charAt(i));
        }
        return node;
    }

    /** The id of the token that ends at {@code node}, or -1. */
    int id(int node) {
        return ids[node];
    }
}
