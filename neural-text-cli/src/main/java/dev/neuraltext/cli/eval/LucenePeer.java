package dev.neuraltext.cli.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.eval.EvalDocument;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene 9 BM25 (k1 1.2, b 0.75) over one text field {@code title + "\n" + text}, in memory. The query is analysed
 * with the same analyzer and every term becomes a SHOULD clause. Two analyzers: {@link #standard()}
 * ({@code StandardAnalyzer}, no stop words) and {@link #wordDelimiter()} (the code analyzer of
 * {@link #codeAnalyzer(boolean)}). These reproduce the reference figures of the benchmark README exactly. Searches are
 * thread-safe after indexing.
 */
public final class LucenePeer implements Peer {

    private static final String FIELD = "content";
    private static final String ID = "id";
    private static final Pattern NON_IDENTIFIER = Pattern.compile("[^A-Za-z0-9_]+");

    private final String name;
    private final String description;
    private final Analyzer indexAnalyzer;
    private final Analyzer queryAnalyzer;
    private IndexSearcher searcher;
    private DirectoryReader reader;

    private LucenePeer(String name, String description, Analyzer indexAnalyzer, Analyzer queryAnalyzer) {
        this.name = name;
        this.description = description;
        this.indexAnalyzer = indexAnalyzer;
        this.queryAnalyzer = queryAnalyzer;
    }

    static LucenePeer standard() {
        StandardAnalyzer a = new StandardAnalyzer();
        return new LucenePeer("lucene-standard", "Lucene 9.12 BM25, StandardAnalyzer", a, a);
    }

    static LucenePeer wordDelimiter() {
        return new LucenePeer("lucene-wdgf",
                "Lucene 9.12 BM25, WordDelimiterGraphFilter (split on case change, preserve original)",
                codeAnalyzer(true), codeAnalyzer(false));
    }

    /**
     * The code analyzer of the reference figures: split on every character that cannot be part of a Java identifier
     * ({@code [^A-Za-z0-9_]+}, so {@code TimedSemaphore.getLimit(int)} gives {@code TimedSemaphore}, {@code getLimit},
     * {@code int}), then {@code WordDelimiterGraphFilter} with the factory defaults (word and number parts, split on
     * case change and on numerics, English possessives) plus the original kept, lower case, English stop words.
     * (StandardTokenizer would keep {@code TimedSemaphore.getLimit} as one token, which costs 0.07 MRR@10 here.)
     */
    public static Analyzer codeAnalyzer(boolean forIndexing) {
        int flags = WordDelimiterGraphFilter.GENERATE_WORD_PARTS | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
                | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS
                | WordDelimiterGraphFilter.STEM_ENGLISH_POSSESSIVE | WordDelimiterGraphFilter.PRESERVE_ORIGINAL;
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer tokenizer = new PatternTokenizer(NON_IDENTIFIER, -1);
                TokenStream s = new WordDelimiterGraphFilter(tokenizer, flags, null);
                if (forIndexing) {
                    s = new FlattenGraphFilter(s); // index writers need a flat token stream
                }
                s = new LowerCaseFilter(s);
                s = new StopFilter(s, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
                return new TokenStreamComponents(tokenizer, s);
            }
        };
    }

    /** The query of the reference figures: every term {@code analyzer} makes of {@code text} as a SHOULD clause. */
    public static BooleanQuery termsQuery(Analyzer analyzer, String field, String text) throws IOException {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        try (TokenStream ts = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                b.add(new TermQuery(new Term(field, term.toString())), BooleanClause.Occur.SHOULD);
            }
            ts.end();
        }
        return b.build();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void index(List<EvalDocument> documents, ProgressBar progress) {
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(indexAnalyzer))) {
            int i = 0;
            for (EvalDocument d : documents) {
                Document doc = new Document();
                doc.add(new StoredField(ID, d.id()));
                doc.add(new TextField(FIELD, d.title() + "\n" + d.text(), Field.Store.NO));
                w.addDocument(doc);
                progress.update(++i);
            }
            w.forceMerge(1);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("Lucene peer '" + name + "': indexing failed", e);
        }
        try {
            reader = DirectoryReader.open(dir);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("Lucene peer '" + name + "': cannot open the index", e);
        }
        searcher = new IndexSearcher(reader);
    }

    @Override
    public Ranking search(String query, int depth) {
        try {
            TopDocs top = searcher.search(termsQuery(queryAnalyzer, FIELD, query), depth);
            StoredFields stored = searcher.storedFields();
            List<String> ids = new ArrayList<>(top.scoreDocs.length);
            for (ScoreDoc sd : top.scoreDocs) {
                ids.add(stored.document(sd.doc).get(ID));
            }
            return new Ranking(ids, 0);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("Lucene peer '" + name + "': search failed", e);
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                throw new NonRetriableNeuralTextException("Lucene peer '" + name + "': close failed", e);
            }
        }
    }
}
