package dev.neuraltext.store;

import dev.neuraltext.chunk.ChunkInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunk records of a saved index's {@code chunks.bin}, memory-mapped read-only, so that a loaded store keeps the
 * text and fields of its chunks out of the heap and decodes them only for the hits it returns. A record is
 * {@code id | text | metadata | list metadata | fields} as {@link IndexFiles} writes it (strings as
 * {@code int byteLength + UTF-8}), found by its offset in the file. Files above 1 GiB are mapped in several segments;
 * a record may straddle two.
 *
 * <p>The files of a generation are never rewritten (a save writes a new generation), and a mapping stays valid after
 * its file is deleted, so a loaded store keeps reading its generation even once later saves garbage-collected it.
 *
 * <p>Immutable and thread-safe: only absolute reads of the mapping.
 */
final class MappedChunks {

    private static final int SEGMENT_SHIFT = 30;
    private static final long SEGMENT_MASK = (1L << SEGMENT_SHIFT) - 1;

    private final Path file;
    private final long size;
    private final MappedByteBuffer[] segments;

    private MappedChunks(Path file, long size, MappedByteBuffer[] segments) {
        this.file = file;
        this.size = size;
        this.segments = segments;
    }

    /** Maps {@code file} read-only. */
    static MappedChunks map(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            int n = (int) ((size + SEGMENT_MASK) >>> SEGMENT_SHIFT);
            MappedByteBuffer[] segments = new MappedByteBuffer[Math.max(1, n)];
            for (int s = 0; s < segments.length; s++) {
                long start = (long) s << SEGMENT_SHIFT;
                segments[s] = ch.map(FileChannel.MapMode.READ_ONLY, start, Math.min(size - start, 1L << SEGMENT_SHIFT));
            }
            return new MappedChunks(file, size, segments);
        }
    }

    /** The mapped file's length in bytes. */
    long size() {
        return size;
    }

    int readInt(long position) {
        int s = (int) (position >>> SEGMENT_SHIFT);
        int at = (int) (position & SEGMENT_MASK);
        ByteBuffer b = segments[s];
        if (at + Integer.BYTES <= b.limit()) {
            return b.getInt(at);
        }
        byte[] four = bytes(position, Integer.BYTES);
        return ByteBuffer.wrap(four).getInt();
    }

    /** {@code length} bytes at {@code position}, across segments if need be. */
    byte[] bytes(long position, int length) {
        check(position, length);
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            long p = position + done;
            ByteBuffer b = segments[(int) (p >>> SEGMENT_SHIFT)];
            int at = (int) (p & SEGMENT_MASK);
            int n = Math.min(length - done, b.limit() - at);
            b.get(at, out, done, n);
            done += n;
        }
        return out;
    }

    private void check(long position, int length) {
        if (position < 0 || length < 0 || position + length > size) {
            throw new CorruptIndexException("index file " + file + " is corrupt: a record at byte " + position
                    + " of length " + length + " runs past its end (" + size + " bytes); rebuild the index", null);
        }
    }

    /** The string at {@code position} and the position after it. */
    String string(long position) {
        int n = readInt(position);
        return new String(bytes(position + Integer.BYTES, n), StandardCharsets.UTF_8);
    }

    /** The position after the string at {@code position}. */
    long skipString(long position) {
        int n = readInt(position);
        check(position + Integer.BYTES, n);
        return position + Integer.BYTES + n;
    }

    /** The position after the string map at {@code position}. */
    long skipStringMap(long position) {
        int n = readInt(position);
        long p = position + Integer.BYTES;
        for (int i = 0; i < 2 * n; i++) {
            p = skipString(p);
        }
        return p;
    }

    /** The id of the record at {@code record}. */
    String id(long record) {
        return string(record);
    }

    /** The text of the record at {@code record}. */
    String text(long record) {
        return string(skipString(record));
    }

    /** The whole chunk of the record at {@code record}. */
    ChunkInput chunk(long record) {
        Record r = record(record);
        return new ChunkInput(r.id(), string(r.text()), r.metadata(), r.listMetadata(), stringMap(r.fields()));
    }

    /**
     * The record at {@code record} with its id and metadata decoded, and the positions of its text and fields (not
     * decoded), plus the position after it.
     */
    Record record(long record) {
        String id = string(record);
        long text = skipString(record);
        long p = skipString(text);
        Map<String, String> metadata = stringMap(p);
        p = skipStringMap(p);
        int lists = readInt(p);
        p += Integer.BYTES;
        Map<String, List<String>> listMetadata = new LinkedHashMap<>();
        for (int l = 0; l < lists; l++) {
            String key = string(p);
            p = skipString(p);
            int m = readInt(p);
            p += Integer.BYTES;
            if (m < 0 || m > size) {
                throw new CorruptIndexException("index file " + file + " is corrupt: list of " + m + " values at byte "
                        + p + "; rebuild the index", null);
            }
            List<String> values = new ArrayList<>(m);
            for (int v = 0; v < m; v++) {
                values.add(string(p));
                p = skipString(p);
            }
            listMetadata.put(key, values);
        }
        long fields = p;
        return new Record(id, text, metadata, listMetadata, fields, skipStringMap(fields));
    }

    private Map<String, String> stringMap(long position) {
        int n = readInt(position);
        long p = position + Integer.BYTES;
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = string(p);
            p = skipString(p);
            map.put(k, string(p));
            p = skipString(p);
        }
        return map;
    }

    /**
     * A record's decoded id and metadata, and positions.
     *
     * @param text   the position of its text
     * @param fields the position of its BM25 fields
     * @param end    the position after it (the next record's)
     */
    record Record(String id, long text, Map<String, String> metadata, Map<String, List<String>> listMetadata,
                  long fields, long end) {
    }
}
