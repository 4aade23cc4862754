package dev.neuraltext.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable, insertion-ordered {@code Map<String, String>} kept in one array of alternating keys and values, with
 * the keys interned: the form {@link Checks#stringMap} gives chunk metadata and fields, about a fifth of the heap of an
 * unmodifiable {@code LinkedHashMap}, and never copied again once validated. Lookups scan the array, which is fast
 * for the few keys metadata has. Equal to any {@link Map} with the same entries.
 *
 * <p>Immutable and thread-safe.
 */
public final class CompactStringMap extends AbstractMap<String, String> {

    private final String[] keysAndValues;

    /** Takes ownership of {@code keysAndValues}: distinct non-null keys at even indexes, non-null values at odd ones. */
    CompactStringMap(String[] keysAndValues) {
        this.keysAndValues = keysAndValues;
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keysAndValues[i] = keysAndValues[i].intern();
        }
    }

    @Override
    public int size() {
        return keysAndValues.length >> 1;
    }

    @Override
    public boolean isEmpty() {
        return keysAndValues.length == 0;
    }

    @Override
    public String get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : keysAndValues[i + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    private int indexOf(Object key) {
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i] == key) {
                return i;
            }
        }
        if (key instanceof String) {
            for (int i = 0; i < keysAndValues.length; i += 2) {
                if (keysAndValues[i].equals(key)) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, String>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < keysAndValues.length;
                    }

                    @Override
                    public Entry<String, String> next() {
                        if (next >= keysAndValues.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, String> e = new SimpleImmutableEntry<>(keysAndValues[next], keysAndValues[next + 1]);
                        next += 2;
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return CompactStringMap.this.size();
            }
        };
    }

    @Override
    public void forEach(java.util.function.BiConsumer<? super String, ? super String> action) {
        for (int i = 0; i < keysAndValues.length; i += 2) {
            action.accept(keysAndValues[i], keysAndValues[i + 1]);
        }
    }
}
