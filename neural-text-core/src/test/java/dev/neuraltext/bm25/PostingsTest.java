package dev.neuraltext.bm25;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PostingsTest {

    /** Random postings: docs with small and huge gaps, some in several fields, fields and frequencies of any width. */
    private static int[][] randomEntries(Random random, int n) {
        int[] docs = new int[n];
        int[] fieldTf = new int[n];
        int doc = random.nextInt(3) == 0 ? random.nextInt(1 << 30) : 0;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                int kind = random.nextInt(20);
                int gap = kind == 0 ? 0 // a second field of the same document
                        : kind == 1 ? random.nextInt(1 << 20) : kind == 2 ? 0 : 1 + random.nextInt(kind < 10 ? 3 : 300);
                doc = (int) Math.min(Integer.MAX_VALUE - 1, (long) doc + gap);
            }
            docs[i] = doc;
            int field = random.nextInt(10) == 0 ? random.nextInt(Postings.MAX_FIELDS) : random.nextInt(2);
            int tf = random.nextInt(50) == 0 ? 1 + random.nextInt(Postings.TF_MASK) : 1 + random.nextInt(4);
            fieldTf[i] = field << Postings.FIELD_SHIFT | tf;
        }
        return new int[][] {docs, fieldTf};
    }

    private static Postings postingsOf(int[][] entries) {
        Postings p = new Postings();
        for (int i = 0; i < entries[0].length; i++) {
            p.add(entries[0][i], entries[1][i] >>> Postings.FIELD_SHIFT, entries[1][i] & Postings.TF_MASK);
        }
        return p;
    }

    @Test
    void aCursorReadsBackEveryEntryInOrderWhetherPackedOrNot() {
        Random random = new Random(3);
        for (int n : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 500, 5_003}) {
            int[][] entries = randomEntries(random, n);
            Postings p = postingsOf(entries);
            assertThat(p.size()).isEqualTo(n);
            assertThat(p.lastDoc()).isEqualTo(n == 0 ? -1 : entries[0][n - 1]);
            Postings.Cursor c = p.cursor();
            assertThat(c.doc()).isEqualTo(-1);
            for (int i = 0; i < n; i++) {
                assertThat(c.next()).as("size %d entry %d", n, i).isEqualTo(entries[0][i]);
                assertThat(c.entry()).isEqualTo(i);
                assertThat(c.fieldTf()).as("size %d entry %d", n, i).isEqualTo(entries[1][i]);
            }
            assertThat(c.next()).isEqualTo(Postings.NO_MORE_DOCS);
            assertThat(c.next()).isEqualTo(Postings.NO_MORE_DOCS);
            int[] docs = new int[n];
            int[] fieldTf = new int[n];
            p.copyTo(docs, fieldTf);
            assertThat(docs).isEqualTo(entries[0]);
            assertThat(fieldTf).isEqualTo(entries[1]);
        }
    }

    @Test
    void advanceFindsWhatALinearScanFindsFromAnyEntry() {
        Random random = new Random(11);
        for (int n : new int[] {1, 10, 16, 40, 3_000}) {
            int[][] entries = randomEntries(random, n);
            int[] docs = entries[0];
            Postings p = postingsOf(entries);
            for (int walk = 0; walk < 300; walk++) {
                Postings.Cursor c = p.cursor();
                int expected = -1; // the entry a linear scan is on
                while (expected < n) {
                    int step = random.nextInt(4);
                    if (step == 0) { // one entry on
                        expected++;
                        assertThat(c.next()).isEqualTo(expected < n ? docs[expected] : Postings.NO_MORE_DOCS);
                        continue;
                    }
                    int from = expected < 0 ? 0 : docs[expected];
                    int reach = step == 1 ? 3 : step == 2 ? 400 : 1 << 22;
                    int target = (int) Math.min(Integer.MAX_VALUE - 1L, from + (long) random.nextInt(reach));
                    int e = Math.max(expected, 0);
                    while (e < n && docs[e] < target) {
                        e++;
                    }
                    if (expected >= 0 && docs[expected] >= target) {
                        e = expected; // a cursor never moves back
                    }
                    expected = e;
                    int doc = c.advance(target);
                    assertThat(doc).as("size %d target %d", n, target)
                            .isEqualTo(e < n ? docs[e] : Postings.NO_MORE_DOCS);
                    if (e < n) {
                        assertThat(c.entry()).isEqualTo(e);
                        assertThat(c.fieldTf()).isEqualTo(entries[1][e]);
                    }
                }
            }
        }
    }

    @Test
    void postingsReadBackTakeEightBytesAnEntryAndASkipEntryPerGroup() {
        int[] docs = new int[1_200]; // room to spare: the postings keep only the entries
        int[] fieldTf = new int[docs.length];
        for (int doc = 0; doc < 1_000; doc++) {
            docs[doc] = doc;
            fieldTf[doc] = 1;
        }
        Postings p = Postings.of(docs, fieldTf, 1_000);
        assertThat(p.arrayBytes()).isEqualTo(1_000 * 8L + (1_000 / Postings.GROUP_SIZE) * 4L);
        Postings.Cursor c = p.cursor();
        assertThat(c.advance(999)).isEqualTo(999);
        assertThat(c.entry()).isEqualTo(999);
    }

    @Test
    void compactionDropsDeletedDocumentsAndRenumbersTheRest() {
        Random random = new Random(5);
        int[][] entries = randomEntries(random, 1_000);
        // small doc ordinals, so that the renumbering table is small
        for (int i = 0; i < entries[0].length; i++) {
            entries[0][i] = i / 2;
        }
        Postings p = postingsOf(entries);
        int[] newOrdinal = new int[500];
        int next = 0;
        for (int d = 0; d < newOrdinal.length; d++) {
            newOrdinal[d] = d % 3 == 0 ? -1 : next++;
        }
        p.compact(newOrdinal);
        Postings.Cursor c = p.cursor();
        for (int i = 0; i < entries[0].length; i++) {
            int nd = newOrdinal[entries[0][i]];
            if (nd >= 0) {
                assertThat(c.next()).isEqualTo(nd);
                assertThat(c.fieldTf()).isEqualTo(entries[1][i]);
            }
        }
        assertThat(c.next()).isEqualTo(Postings.NO_MORE_DOCS);
    }

    @Test
    void entriesOutOfOrderOrWithAFieldOutOfRangeAreRejected() {
        Postings p = new Postings();
        p.add(5, 0, 1);
        assertThatThrownBy(() -> p.add(4, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("doc 4 after 5");
        assertThatThrownBy(() -> p.add(6, Postings.MAX_FIELDS, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field ordinal 256");
        assertThat(p.size()).isEqualTo(1);
    }
}
