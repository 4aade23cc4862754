package com.example.catalog;

import java.util.LinkedHashMap;
import java.util.Map;

/** A least-recently-used cache: when it is full, putting a new entry evicts the entry read longest ago. */
public final class LruCache<K, V> extends LinkedHashMap<K, V> {

    private final int capacity;

    public LruCache(int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    /** Evicts the eldest entry once the cache holds more than its capacity. */
    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
