package dev.neuraltext.bm25;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A document's distinct term ordinals, kept only so that a delete can decrement their document frequencies: sorted,
 * delta-encoded and written as variable-length integers (7 bits a byte), about a quarter of an {@code int[]}'s
 * bytes for a typical document. Stateless.
 */
final class TermSet {

    private TermSet() {
    }

    /** Encodes the first {@code count} entries of {@code terms} (distinct, any order; sorted in place). */
    static byte[] encode(int[] terms, int count) {
        Arrays.sort(terms, 0, count);
        ByteArrayOutputStream out = new ByteArrayOutputStream(count * 2);
        int previous = 0;
        for (int i = 0; i < count; i++) {
            int delta = terms[i] - previous;
            previous = terms[i];
            while ((delta & ~0x7f) != 0) {
                out.write((delta & 0x7f) | 0x80);
                delta >>>= 7;
            }
            out.write(delta);
        }
        return out.toByteArray();
    }

    /** Calls {@code action} with every term of an encoded set, ascending. */
    static void forEach(byte[] encoded, IntConsumer action) {
        int term = 0;
        int i = 0;
        while (i < encoded.length) {
            int delta = 0;
            int shift = 0;
            byte b;
            do {
                b = encoded[i++];
                delta |= (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
            term += delta;
            action.accept(term);
        }
    }
}
