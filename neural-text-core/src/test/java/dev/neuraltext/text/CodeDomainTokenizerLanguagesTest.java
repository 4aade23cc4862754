package dev.neuraltext.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tokenizer on the naming styles of the languages the syntax-tree chunker reads (Python, Rust, Ruby, PHP, Lisp,
 * Haskell, shell, C++): what each gives, compound first, then its parts.
 */
class CodeDomainTokenizerLanguagesTest {

    private static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        CodeDomainTokenizer.standard().tokenize(text, (t, k) -> out.add(t + "/" + k.name().toLowerCase()));
        return out;
    }

    @Test
    void snakeAndScreamingCaseGiveTheirCompoundAndParts() {
        assertThat(terms("parse_http_request")).containsExactly("parsehttprequest/compound", "parse/part",
                "http/part", "request/part");
        assertThat(terms("MAX_RETRY_COUNT")).containsExactly("maxretrycount/compound", "max/part", "retry/part",
                "count/part");
        // dunder names are one word
        assertThat(terms("__init__")).containsExactly("init/word");
    }

    @Test
    void kebabCaseGivesCompoundPlusParts() {
        // a hyphen between letters joins as an underscore does: compound plus parts, as for snake_case
        assertThat(terms("max-retry-count")).containsExactly("maxretrycount/compound", "max/part", "retry/part",
                "count/part");
        assertThat(terms("(set-car! pair 1)")).containsExactly("setcar/compound", "set/part", "car/part", "pair/word",
                "1/word");
        // a hyphen before a digit, doubled, or at either end does not join
        assertThat(terms("x-1 --verbose ab--cd trailing-")).containsExactly("x/word", "1/word", "verbose/word", "ab/word",
                "cd/word", "trailing/word");
    }

    @Test
    void doubleColonAndArrowQualifiedNamesSplitLikeDots() {
        assertThat(terms("std::vector::push_back")).containsExactly("std/word", "vector/word", "pushback/compound",
                "push/part", "back/part");
        assertThat(terms("obj->next_node")).containsExactly("obj/word", "nextnode/compound", "next/part", "node/part");
        assertThat(terms("Data.Map.Strict")).containsExactly("data/word", "map/word", "strict/word");
        assertThat(terms("\\App\\Users\\UserRepository")).containsExactly("app/word", "user/word",
                "userrepository/compound", "user/part", "repository/part");
    }

    @Test
    void sigilsAreDroppedSoTheNameMatchesWithoutThem() {
        assertThat(terms("$userName")).containsExactly("username/compound", "user/part", "name/part");
        assertThat(terms("@instance_var")).containsExactly("instancevar/compound", "instance/part", "var/part");
        assertThat(terms("#privateField")).containsExactly("privatefield/compound", "private/part", "field/part");
        assertThat(terms("save! valid?")).containsExactly("save/word", "valid/word");
    }

    @Test
    void operatorsAreLeftAloneAndMakeNoTerms() {
        assertThat(terms("m >>= f <$> xs <|> ys")).containsExactly("m/word", "f/word", "xs/word", "ys/word");
        assertThat(terms("(-> x (+ 1) (* 2))")).containsExactly("x/word", "1/word", "2/word");
    }
}
