package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An evaluation dataset: a corpus, the queries that have at least one relevant judgment, their graded judgments, and
 * an optional id-alias map. Load one with {@link BeirDataset}, or build one in code with {@link #of}.
 *
 * <p><b>Aliases</b> map a document id to the canonical id of the document it duplicates (two editions, two copies of
 * a file), so either copy counts as the same answer: judgments are stored under canonical ids (the higher grade wins
 * when two copies are judged), and {@link #canonicalId(String)} maps retrieved ids before scoring.
 *
 * <p><b>Queries without judgments</b> (no document graded 1 or more) cannot be scored: they are left out of
 * {@link #queries()}, kept in {@link #excludedQueries()} and mentioned in {@link #warnings()}.
 *
 * <p>Immutable and thread-safe.
 */
public final class EvalDataset {

    private final String name;
    private final List<EvalDocument> documents;
    private final Map<String, EvalDocument> documentsById;
    private final List<EvalQuery> queries;
    private final List<EvalQuery> excludedQueries;
    private final Qrels qrels;
    private final Map<String, String> aliases;
    private final List<String> warnings;

    private EvalDataset(String name, List<EvalDocument> documents, Map<String, EvalDocument> documentsById,
            List<EvalQuery> queries, List<EvalQuery> excludedQueries, Qrels qrels, Map<String, String> aliases,
            List<String> warnings) {
        this.name = name;
        this.documents = documents;
        this.documentsById = documentsById;
        this.queries = queries;
        this.excludedQueries = excludedQueries;
        this.qrels = qrels;
        this.aliases = aliases;
        this.warnings = warnings;
    }

    /** A dataset without aliases. See {@link #of(String, List, List, Qrels, Map, List)}. */
    public static EvalDataset of(String name, List<EvalDocument> documents, List<EvalQuery> queries, Qrels qrels) {
        return of(name, documents, queries, qrels, Map.of(), List.of());
    }

    /**
     * A dataset from its parts.
     *
     * @param name      a name for reports
     * @param documents the corpus; ids must be unique
     * @param queries   the queries; ids must be unique; those without a relevant judgment are excluded
     * @param qrels     judgments; every query id and document id must be known (document ids may be aliases)
     * @param aliases   document id to canonical document id; both must be corpus ids, and a canonical id must not
     *                  itself be an alias
     * @param warnings  notes from loading to carry along (e.g. judgments dropped for unknown ids)
     * @throws IllegalArgumentException on duplicate ids, unknown ids in the judgments or aliases, alias chains
     */
    public static EvalDataset of(String name, List<EvalDocument> documents, List<EvalQuery> queries, Qrels qrels,
            Map<String, String> aliases, List<String> warnings) {
        Checks.notBlank(name, "name");
        Checks.notNull(documents, "documents");
        Checks.notNull(queries, "queries");
        Checks.notNull(qrels, "qrels");
        Map<String, String> aliasCopy = Checks.stringMap(aliases, "aliases");
        List<String> notes = new ArrayList<>(Checks.notNull(warnings, "warnings"));

        Map<String, EvalDocument> byId = new HashMap<>(documents.size() * 2);
        for (EvalDocument d : documents) {
            Checks.notNull(d, "document");
            if (byId.putIfAbsent(d.id(), d) != null) {
                throw new IllegalArgumentException("duplicate document id '" + d.id() + "'");
            }
        }
        aliasCopy.forEach((alias, canonical) -> {
            if (!byId.containsKey(alias)) {
                throw new IllegalArgumentException("alias '" + alias + "' is not a document id");
            }
            if (!byId.containsKey(canonical)) {
                throw new IllegalArgumentException("alias target '" + canonical + "' (of '" + alias
                        + "') is not a document id");
            }
            if (aliasCopy.containsKey(canonical)) {
                throw new IllegalArgumentException("alias target '" + canonical + "' (of '" + alias
                        + "') is itself an alias; map every copy to one canonical id");
            }
        });
        Map<String, EvalQuery> queriesById = new LinkedHashMap<>();
        for (EvalQuery q : queries) {
            Checks.notNull(q, "query");
            if (queriesById.putIfAbsent(q.id(), q) != null) {
                throw new IllegalArgumentException("duplicate query id '" + q.id() + "'");
            }
        }

        Map<String, Map<String, Integer>> canonicalJudgments = new LinkedHashMap<>();
        qrels.asMap().forEach((q, docs) -> {
            if (!queriesById.containsKey(q)) {
                throw new IllegalArgumentException("judgments name unknown query id '" + q + "'");
            }
            Map<String, Integer> m = new LinkedHashMap<>();
            docs.forEach((doc, grade) -> {
                if (!byId.containsKey(doc)) {
                    throw new IllegalArgumentException("judgments of query '" + q + "' name unknown document id '"
                            + doc + "'");
                }
                m.merge(aliasCopy.getOrDefault(doc, doc), grade, Math::max);
            });
            canonicalJudgments.put(q, m);
        });
        Qrels canonicalQrels = Qrels.of(canonicalJudgments);

        List<EvalQuery> judged = new ArrayList<>();
        List<EvalQuery> excluded = new ArrayList<>();
        for (EvalQuery q : queriesById.values()) {
            (canonicalQrels.hasRelevant(q.id()) ? judged : excluded).add(q);
        }
        if (!excluded.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(5, excluded.size()); i++) {
                sb.append(i == 0 ? "" : ", ").append(excluded.get(i).id());
            }
            notes.add(excluded.size() + " queries without a relevant judgment excluded (" + sb
                    + (excluded.size() > 5 ? ", ..." : "") + ")");
        }
        return new EvalDataset(name, List.copyOf(documents), Collections.unmodifiableMap(byId), List.copyOf(judged),
                List.copyOf(excluded), canonicalQrels, aliasCopy, List.copyOf(notes));
    }

    /** The name used in reports (by default the dataset folder's name). */
    public String name() {
        return name;
    }

    /** The corpus, in file order. */
    public List<EvalDocument> documents() {
        return documents;
    }

    /** The document with this id, or null. */
    public EvalDocument document(String id) {
        return documentsById.get(id);
    }

    /** The scorable queries (at least one relevant judgment), in file order. */
    public List<EvalQuery> queries() {
        return queries;
    }

    /** Queries left out because they have no relevant judgment. */
    public List<EvalQuery> excludedQueries() {
        return excludedQueries;
    }

    /** The judgments, keyed by canonical document ids. */
    public Qrels qrels() {
        return qrels;
    }

    /** The judgments of one query (canonical document id to grade). */
    public Map<String, Integer> judgments(EvalQuery query) {
        return qrels.judgments(query.id());
    }

    /** Document id to canonical id, for documents that duplicate another. */
    public Map<String, String> aliases() {
        return aliases;
    }

    /** The canonical id of a document id ({@code id} itself unless it is an alias). */
    public String canonicalId(String id) {
        return aliases.getOrDefault(id, id);
    }

    /** Notes from loading: judgments dropped, queries excluded, and similar. */
    public List<String> warnings() {
        return warnings;
    }

    /** A one-line description such as {@code "commons-lang: 4845 documents, 900 queries, 1924 judgments"}. */
    public String summary() {
        return name + ": " + documents.size() + " documents, " + queries.size() + " queries"
                + (excludedQueries.isEmpty() ? "" : " (" + excludedQueries.size() + " excluded without judgments)")
                + ", " + qrels.size() + " judgments" + (aliases.isEmpty() ? "" : ", " + aliases.size() + " aliases");
    }

    @Override
    public String toString() {
        return "EvalDataset[" + summary() + "]";
    }
}
