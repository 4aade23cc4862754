package dev.neuraltext.filter;

import static dev.neuraltext.filter.PayloadFilter.all;
import static dev.neuraltext.filter.PayloadFilter.between;
import static dev.neuraltext.filter.PayloadFilter.isEmpty;
import static dev.neuraltext.filter.PayloadFilter.isNull;
import static dev.neuraltext.filter.PayloadFilter.matchAny;
import static dev.neuraltext.filter.PayloadFilter.matchExcept;
import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static dev.neuraltext.filter.PayloadFilter.matchText;
import static dev.neuraltext.filter.PayloadFilter.must;
import static dev.neuraltext.filter.PayloadFilter.mustNot;
import static dev.neuraltext.filter.PayloadFilter.range;
import static dev.neuraltext.filter.PayloadFilter.should;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Truth tables of every node against hand-written payloads (Qdrant's documented semantics). */
class PayloadFilterTest {

    /** A method with two tags and a numeric line. */
    static final Payload P1 = new Payload(Map.of("type", "method", "path", "src/main/Foo.java", "line", "42"),
            Map.of("tags", List.of("http", "retry"), "versions", List.of("1", "5", "10")));
    /** A test class with an empty tag list and an empty-string field. */
    static final Payload P2 = new Payload(Map.of("type", "class", "path", "src/test/FooTest.java", "blank", ""),
            Map.of("tags", List.of()));
    /** Nothing at all. */
    static final Payload P3 = Payload.empty();
    /** A non-canonical number and one tag. */
    static final Payload P4 = new Payload(Map.of("line", "042", "size", "7"), Map.of("tags", List.of("db")));

    private static void table(PayloadFilter f, boolean p1, boolean p2, boolean p3, boolean p4) {
        assertThat(new boolean[] {f.test(P1), f.test(P2), f.test(P3), f.test(P4)})
                .as("%s on P1..P4", f).containsExactly(p1, p2, p3, p4);
    }

    @Test
    void allOfLeavesOutWhatMatchesEverything() {
        PayloadFilter code = matchKeyword("type", "code");
        PayloadFilter main = matchText("path", "main");
        assertThat(PayloadFilter.allOf(List.of())).isEqualTo(all());
        assertThat(PayloadFilter.allOf(List.of(all(), all())).matchesAll()).isTrue();
        assertThat(PayloadFilter.allOf(List.of(all(), code))).isSameAs(code);
        assertThat(PayloadFilter.allOf(List.of(code, all()))).isSameAs(code);
        assertThat(PayloadFilter.allOf(List.of(code, all(), main))).isEqualTo(must(code, main));
        assertThatThrownBy(() -> PayloadFilter.allOf(java.util.Arrays.asList(code, null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("filter");
    }

    @Test
    void matchKeywordTable() {
        table(matchKeyword("type", "method"), true, false, false, false);
        table(matchKeyword("tags", "retry"), true, false, false, false); // list: any element
        table(matchKeyword("line", "42"), true, false, false, false); // text equality: "042" is not "42"
        table(matchKeyword("blank", ""), false, true, false, false);
    }

    @Test
    void matchAnyTable() {
        table(matchAny("tags", "retry", "db"), true, false, false, true);
        table(matchAny("type", "class", "method"), true, true, false, false);
        table(matchAny("type"), false, false, false, false); // empty list matches nothing
    }

    @Test
    void matchExceptTable() {
        table(matchExcept("tags", "http"), true, false, false, true); // P1: retry is outside; P2: no element at all
        table(matchExcept("tags", "http", "retry"), false, false, false, true);
        table(matchExcept("type", "class"), true, false, false, false); // absent field never matches
        table(matchExcept("type"), true, true, false, false); // empty list: any present value
    }

    @Test
    void matchTextTable() {
        table(matchText("path", "test"), false, true, false, false);
        table(matchText("path", ""), true, true, false, false);
        table(matchText("tags", "ttp"), true, false, false, false);
        // canonical integers are numbers (as in Qdrant): a text match never matches them; "042" is text
        table(matchText("line", "4"), false, false, false, true);
    }

    @Test
    void rangeTable() {
        table(between("line", 40.0, 42.0), true, false, false, false); // "042" is not a number
        table(PayloadFilter.range("line", 42.0, null, null, null), false, false, false, false);
        table(PayloadFilter.range("line", null, null, 42.0, null), false, false, false, false);
        table(PayloadFilter.range("line", null, null, null, 42.0), true, false, false, false);
        table(between("size", 7.0, 7.0), false, false, false, true);
        table(PayloadFilter.range("versions", 6.0, null, null, null), true, false, false, false); // 10 > 6
        table(PayloadFilter.range("versions", 10.0, null, null, null), false, false, false, false);
        table(PayloadFilter.range("versions", 1.5, null, 4.5, null), false, false, false, false); // none in (1.5,4.5)
        table(PayloadFilter.range("type", null, 0.0, null, null), false, false, false, false); // text is ignored
        table(PayloadFilter.range("line", null, 41.5, null, 42.5), true, false, false, false);
    }

    @Test
    void isEmptyAndIsNull() {
        table(isEmpty("tags"), false, true, true, false); // absent counts as empty
        table(isEmpty("type"), false, false, true, true);
        table(isEmpty("blank"), true, false, true, true); // "" is a value, not emptiness
        table(isNull("type"), false, false, false, false);
        table(isNull("nothing"), false, false, false, false);
    }

    @Test
    void clauses() {
        table(all(), true, true, true, true);
        table(must(matchKeyword("type", "method"), matchKeyword("tags", "http")), true, false, false, false);
        table(should(), false, false, false, false);
        table(should(matchKeyword("type", "class"), matchKeyword("tags", "db")), false, true, false, true);
        table(mustNot(), true, true, true, true);
        table(mustNot(matchKeyword("type", "method")), false, true, true, true); // absent field: matches
        table(mustNot(matchKeyword("type", "method"), matchKeyword("tags", "db")), false, true, true, false);
    }

    @Test
    void nesting() {
        table(mustNot(must(matchKeyword("type", "method"), matchKeyword("tags", "http"))), false, true, true, true);
        table(must(should(isEmpty("tags"), matchAny("tags", "db")), mustNot(isEmpty("type"))),
                false, true, false, false);
        table(should(must(), should()), true, true, true, true);
        table(must(should(mustNot(isEmpty("tags")), matchKeyword("type", "class")),
                mustNot(should(matchText("path", "test"), range("size", null, 7.0, null, null)))),
                true, false, false, false);
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> matchKeyword(" ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> range("n", null, null, null, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one bound");
        assertThatThrownBy(() -> range("n", Double.NaN, null, null, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> new PayloadFilter.Must(java.util.Arrays.asList(all(), null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("must[1]");
        assertThat(all().matchesAll()).isTrue();
        assertThat(must(all()).matchesAll()).isFalse();
    }
}
