package dev.neuraltext.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code english-stop-words.txt} resource: English function words, one a line, those the index drops marked
 * {@code index}. Loaded once; immutable.
 */
final class StopWords {

    private static final String RESOURCE = "english-stop-words.txt";

    /** Every word of the list. */
    static final Set<String> ALL;
    /** The words marked {@code index}. */
    static final Set<String> INDEX;

    static {
        Set<String> all = new LinkedHashSet<>();
        Set<String> index = new LinkedHashSet<>();
        try (InputStream in = StopWords.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the neural-text-core jar");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String[] fields = line.strip().split("\\s+");
                if (fields[0].isEmpty() || fields[0].startsWith("#")) {
                    continue;
                }
                if (fields.length > 2 || fields.length == 2 && !fields[1].equals("index")
                        || !fields[0].equals(fields[0].toLowerCase(java.util.Locale.ROOT))) {
                    throw new IllegalStateException(RESOURCE + ": a line is a lower-case word, optionally followed "
                            + "by 'index', got '" + line + "'");
                }
                all.add(fields[0]);
                if (fields.length == 2) {
                    index.add(fields[0]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        ALL = Set.copyOf(all);
        INDEX = Set.copyOf(index);
    }

    private StopWords() {
    }
}
