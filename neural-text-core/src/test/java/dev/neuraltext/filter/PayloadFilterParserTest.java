package dev.neuraltext.filter;

import static dev.neuraltext.filter.PayloadFilter.all;
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
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PayloadFilterParserTest {

    private static PayloadFilter p(String s) {
        return PayloadFilter.parse(s);
    }

    private static void parsesTo(String s, PayloadFilter expected) {
        PayloadFilter actual = p(s);
        assertThat(actual).as(s).isEqualTo(expected);
        assertThat(p(actual.toSyntax())).as("round trip of %s via %s", s, actual.toSyntax()).isEqualTo(expected);
    }

    private static void fails(String s, String message) {
        assertThatThrownBy(() -> p(s)).as(s).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    // ------------------------------------------------------------ happy paths

    @Test
    void theDocumentedExample() {
        parsesTo("type == 'method' and tags in ['http','retry'] and not path ~ 'test'",
                must(matchKeyword("type", "method"), matchAny("tags", "http", "retry"),
                        mustNot(matchText("path", "test"))));
    }

    @Test
    void precedenceNotAndOr() {
        parsesTo("a == '1' or b == '2' and not c == '3'",
                should(matchKeyword("a", "1"), must(matchKeyword("b", "2"), mustNot(matchKeyword("c", "3")))));
        parsesTo("not a == '1' and b == '2'", must(mustNot(matchKeyword("a", "1")), matchKeyword("b", "2")));
        parsesTo("(a == '1' or b == '2') and c == '3'",
                must(should(matchKeyword("a", "1"), matchKeyword("b", "2")), matchKeyword("c", "3")));
        parsesTo("not (a == '1' or b == '2')", mustNot(should(matchKeyword("a", "1"), matchKeyword("b", "2"))));
        parsesTo("not not a == '1'", mustNot(mustNot(matchKeyword("a", "1"))));
        parsesTo("a == '1' or b == '2' or c == '3'",
                should(matchKeyword("a", "1"), matchKeyword("b", "2"), matchKeyword("c", "3")));
    }

    @Test
    void parenthesisedGroupsStayNested() {
        parsesTo("(a == '1' and b == '2') and c == '3'",
                must(must(matchKeyword("a", "1"), matchKeyword("b", "2")), matchKeyword("c", "3")));
        parsesTo("((a == '1'))", matchKeyword("a", "1"));
        parsesTo("a == '1' or (b == '2' or c == '3')",
                should(matchKeyword("a", "1"), should(matchKeyword("b", "2"), matchKeyword("c", "3"))));
    }

    @Test
    void everyOperator() {
        parsesTo("a != 'x'", mustNot(matchKeyword("a", "x")));
        parsesTo("tags in []", matchAny("tags"));
        parsesTo("tags in ['a', \"b\",]", matchAny("tags", "a", "b"));
        parsesTo("tags not in ['a']", mustNot(matchAny("tags", "a")));
        parsesTo("tags except ['a', 'b']", matchExcept("tags", "a", "b"));
        parsesTo("path ~ 'test'", matchText("path", "test"));
        parsesTo("n < 5", range("n", null, null, 5.0, null));
        parsesTo("n <= 5", range("n", null, null, null, 5.0));
        parsesTo("n > -5", range("n", -5.0, null, null, null));
        parsesTo("n >= 2.5", range("n", null, 2.5, null, null));
        parsesTo("1 <= n < 5", range("n", null, 1.0, 5.0, null));
        parsesTo("-2.5 < n <= 1e3", range("n", -2.5, null, null, 1000.0));
        parsesTo("n >= .5", range("n", null, 0.5, null, null));
        parsesTo("n > -0", range("n", 0.0, null, null, null));
        parsesTo("tags is empty", isEmpty("tags"));
        parsesTo("tags is not empty", mustNot(isEmpty("tags")));
        parsesTo("x is null", isNull("x"));
        parsesTo("x is not null", mustNot(isNull("x")));
        parsesTo("true", all());
        parsesTo("false", should());
        parsesTo("a == '1' and false", must(matchKeyword("a", "1"), should()));
    }

    @Test
    void valuesAndKeys() {
        parsesTo("n == 42", matchKeyword("n", "42"));
        parsesTo("n in [1, -2, 'x']", matchAny("n", "1", "-2", "x"));
        parsesTo("k == 'it\\'s'", matchKeyword("k", "it's"));
        parsesTo("k == \"say \\\"hi\\\"\"", matchKeyword("k", "say \"hi\""));
        parsesTo("k == 'a\\\\b'", matchKeyword("k", "a\\b"));
        parsesTo("k == '\\n\\t\\r\\u0041\\u00e9'", matchKeyword("k", "\n\t\rA\u00e9"));
        parsesTo("k == \"it's\"", matchKeyword("k", "it's"));
        parsesTo("'in' == 'x'", matchKeyword("in", "x"));
        parsesTo("\"field with space\" == 'c'", matchKeyword("field with space", "c"));
        parsesTo("meta.kind == 'a' and symbol-type == 'b' and _x1 == 'c'",
                must(matchKeyword("meta.kind", "a"), matchKeyword("symbol-type", "b"), matchKeyword("_x1", "c")));
        parsesTo("gr\u00f6\u00dfe == '\u65e5\u672c'", matchKeyword("gr\u00f6\u00dfe", "\u65e5\u672c"));
        parsesTo("A == '1' AND B == '2' Or NOT c Is Not Empty",
                should(must(matchKeyword("A", "1"), matchKeyword("B", "2")), mustNot(mustNot(isEmpty("c")))));
        parsesTo("a=='1'and(b=='2')", must(matchKeyword("a", "1"), matchKeyword("b", "2")));
    }

    @Test
    void blankInputMatchesEverything() {
        assertThat(p("")).isEqualTo(all());
        assertThat(p("  \t\n")).isEqualTo(all());
    }

    @Test
    void formatsReadably() {
        assertThat(p("type == 'method' and tags in ['http','retry'] and not path ~ 'test'").toSyntax())
                .isEqualTo("type == 'method' and tags in ['http', 'retry'] and not path ~ 'test'");
        assertThat(p("(a == '1' or b != '2') and 0 < n <= 1.5").toSyntax())
                .isEqualTo("(a == '1' or b != '2') and 0 < n <= 1.5");
        assertThat(all().toSyntax()).isEqualTo("true");
        assertThat(matchKeyword("and", "it's\n").toSyntax()).isEqualTo("'and' == 'it\\'s\\n'");
        // trees outside the parser's image format to equivalent filters
        assertThat(mustNot(matchKeyword("a", "1"), matchKeyword("b", "2")).toSyntax())
                .isEqualTo("not (a == '1' or b == '2')");
        assertThat(range("n", 1.0, 2.0, null, null).toSyntax()).isEqualTo("(n > 1 and n >= 2)");
        assertThat(must(matchKeyword("a", "1")).toSyntax()).isEqualTo("a == '1'");
        assertThat(range("n", null, 1e20, null, null).toSyntax()).isEqualTo("n >= 1.0E20");
    }

    // ------------------------------------------------------------ errors

    @Test
    void errorsGiveTheColumnAndWhatWasExpected() {
        fails("type == ", "column 9: expected a value (a quoted string or a number) after '==' but found end of input");
        fails("type = 'x'", "column 6: expected an operator after the field 'type' (==, !=, in, not in, except, ~, "
                + "<, <=, >, >=, is) but found '=' (did you mean '=='?)");
        fails("type == method", "column 9: expected a value (a quoted string or a number) after '==' "
                + "(quote text values: 'method') but found 'method'");
        fails("(a == '1'", "column 10: expected ')' to close the '(' at column 1 (or 'and', 'or') but found end of input");
        fails("a == '1')", "column 9: expected 'and', 'or' or end of input (this ')' closes nothing) but found ')'");
        fails("a == '1' b", "column 10: expected 'and', 'or' or end of input but found 'b'");
        fails("a == 'x", "column 6: expected a value (a quoted string or a number) after '==' but found an "
                + "unterminated string (no closing ')");
        fails("a == 'x\\q'", "column 8: expected a value (a quoted string or a number) after '==' but found an invalid "
                + "escape '\\q' in a string (use \\\\ \\' \\\" \\n \\r \\t or \\uXXXX)");
        fails("a == '\\u12'", "column 7: expected a value (a quoted string or a number) after '==' but found an invalid "
                + "escape in a string (\\u needs four hex digits)");
        fails("a in ['x' 'y']", "column 11: expected ',' or ']' in the list but found 'y'");
        fails("a in 'x'", "column 6: expected '[' after 'in' but found 'x'");
        fails("a in \"x\"", "column 6: expected '[' after 'in' but found \"x\"");
        fails("a in [,]", "column 7: expected a value (a quoted string or a number) in the list but found ','");
        fails("a < 'x'", "column 5: expected a number after '<' but found 'x'");
        fails("a ~ 5", "column 5: expected a quoted string after '~' but found '5'");
        fails("a is full", "column 6: expected 'empty', 'null' or 'not' after 'is' but found 'full'");
        fails("a is not 1", "column 10: expected 'empty' or 'null' after 'is not' but found '1'");
        fails("a not 'x'", "column 7: expected 'in' after 'not' but found 'x'");
        fails("and", "column 1: expected a condition (a field name, 'not', '(', 'true' or 'false') but found 'and'");
        fails("a == '1' and", "column 13: expected a condition (a field name, 'not', '(', 'true' or 'false') but "
                + "found end of input");
        fails("in == 'x'", "column 1: expected a condition (a field name, 'not', '(', 'true' or 'false') but found 'in'");
        fails("'' == 'x'", "column 1: expected a non-blank field name but found ''");
        fails("n < 1e999", "column 5: expected a finite number but found 1e999");
        fails("1 > n", "column 3: expected '<' or '<=' after the number 1 (ranges read low <= field < high) but found '>'");
        fails("1 < n > 2", "column 7: expected '<' or '<=' after the field 'n' but found '>'");
        fails("a # b", "column 3: expected an operator after the field 'a' (==, !=, in, not in, except, ~, <, <=, >, "
                + ">=, is) but found the character '#'");
        fails("a == - 1", "column 6: expected a value (a quoted string or a number) after '==' but found '-'");
        // columns count code points: the emoji is one column
        fails("'\uD83D\uDE00' == '1' or", "column 14: expected a condition (a field name, 'not', '(', 'true' or "
                + "'false') but found end of input");
        assertThatThrownBy(() -> p(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void deepNestingIsRejectedNotAStackOverflow() {
        assertThatThrownBy(() -> p("(".repeat(100_000) + "a == '1'" + ")".repeat(100_000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested deeper than 200");
        assertThatThrownBy(() -> p("not ".repeat(100_000) + "a == '1'"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested deeper than 200");
        assertThat(p("(".repeat(150) + "a == '1'" + ")".repeat(150))).isEqualTo(matchKeyword("a", "1"));
    }

    // ------------------------------------------------------------ random input

    private static final String[] SOUP = {
        "a", "b", "tags", "n", "'x'", "\"y\"", "'1'", "42", "-3", "1.5", "1e3", "==", "!=", "~", "<", "<=", ">", ">=",
        "in", "not", "except", "is", "empty", "null", "and", "or", "true", "false", "(", ")", "[", "]", ",", "'",
        "\"", "\\", "=", "!", "-", ".", "'it\\'s'", "'\\u0041'", "'\\q'", "\u00e9", "\uD83D\uDE00", "\uD800", "\u0000",
    };

    @Test
    void randomStringsOnlyEverThrowIllegalArgumentWithAColumn() {
        Random rnd = new Random(20261129);
        String alphabet = "ab tn()[],'\"\\=!<>~-.019eE_\t\n";
        int parsed = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(30);
            for (int k = 0; k < len; k++) {
                int mode = rnd.nextInt(10);
                if (mode < 7) {
                    sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
                } else if (mode < 9) {
                    sb.append(SOUP[rnd.nextInt(SOUP.length)]).append(' ');
                } else {
                    sb.append((char) rnd.nextInt(0x10000)); // includes lone surrogates and control characters
                }
            }
            parsed += check(sb.toString()) ? 1 : 0;
        }
        assertThat(parsed).isPositive();
    }

    @Test
    void randomTokenSoupsOnlyEverThrowIllegalArgumentAndRoundTripWhenValid() {
        Random rnd = new Random(42);
        int parsed = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + rnd.nextInt(12);
            for (int k = 0; k < len; k++) {
                sb.append(SOUP[rnd.nextInt(SOUP.length)]);
                if (rnd.nextInt(4) > 0) {
                    sb.append(' ');
                }
            }
            parsed += check(sb.toString()) ? 1 : 0;
        }
        // grammar-shaped soups: conditions joined by connectives, so plenty of them parse
        String[] conditions = {"a == 'x'", "b != 1", "tags in ['x', 'y']", "tags not in []", "a except ['1']",
            "a ~ 'x'", "n < 3", "0 <= n < 1.5", "tags is empty", "a is not null", "true", "false"};
        String[] glue = {" and ", " or ", " and not ", " or (", ") and ", " ", "(", ")"};
        for (int round = 0; round < 5_000; round++) {
            StringBuilder sb = new StringBuilder(rnd.nextBoolean() ? "not " : "");
            int len = 1 + rnd.nextInt(6);
            for (int k = 0; k < len; k++) {
                if (k > 0) {
                    sb.append(glue[rnd.nextInt(glue.length)]);
                }
                sb.append(conditions[rnd.nextInt(conditions.length)]);
            }
            parsed += check(sb.toString()) ? 1 : 0;
        }
        assertThat(parsed).isGreaterThan(1_000);
    }

    /** Parses {@code s}: on success the formatted filter parses back to an equal filter; on failure only IAE. */
    private static boolean check(String s) {
        PayloadFilter f;
        try {
            f = p(s);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !ERROR_MESSAGE.matcher(e.getMessage()).matches()) {
                fail("message for <" + s + ">: " + e.getMessage());
            }
            return false;
        }
        String syntax = f.toSyntax();
        if (!f.equals(p(syntax))) { // plain checks: AssertJ descriptions cost more than the parse here
            fail("round trip of <" + s + "> via <" + syntax + ">: " + f + " became " + p(syntax));
        }
        return true;
    }

    private static final Pattern ERROR_MESSAGE = Pattern.compile("(?s)column [1-9][0-9]*: .+");

    @Test
    void randomFiltersFormatToEquivalentFilters() {
        Random rnd = new Random(7);
        List<Payload> payloads = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            payloads.add(randomPayload(rnd));
        }
        for (int round = 0; round < 3_000; round++) {
            PayloadFilter f = randomFilter(rnd, 3);
            String syntax = f.toSyntax();
            PayloadFilter g = p(syntax);
            if (!g.equals(p(g.toSyntax()))) {
                fail("not idempotent: " + syntax);
            }
            for (Payload payload : payloads) {
                if (g.test(payload) != f.test(payload)) {
                    fail(syntax + " on " + payload + ": " + g.test(payload) + " but the original gives " + f.test(payload));
                }
            }
        }
    }

    private static final String[] KEYS = {"a", "tags", "n", "in", "two words", "x.y-z"};
    private static final String[] VALUES = {"x", "y", "1", "42", "-3", "x y", "", "it's", "\\", "\n", "\u00e9"};
    private static final double[] BOUNDS = {-3, 0, 1, 1.5, 42, 1e20};

    private static Payload randomPayload(Random rnd) {
        Map<String, String> single = new LinkedHashMap<>();
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String key : KEYS) {
            int mode = rnd.nextInt(3);
            if (mode == 1) {
                single.put(key, VALUES[rnd.nextInt(VALUES.length)]);
            } else if (mode == 2) {
                List<String> l = new ArrayList<>();
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    l.add(VALUES[rnd.nextInt(VALUES.length)]);
                }
                lists.put(key, l);
            }
        }
        return new Payload(single, lists);
    }

    private static PayloadFilter randomFilter(Random rnd, int depth) {
        String key = KEYS[rnd.nextInt(KEYS.length)];
        int kind = rnd.nextInt(depth > 0 ? 11 : 8);
        switch (kind) {
            case 0:
                return matchKeyword(key, VALUES[rnd.nextInt(VALUES.length)]);
            case 1:
                return matchText(key, VALUES[rnd.nextInt(VALUES.length)]);
            case 2:
                return new PayloadFilter.MatchAny(key, randomValues(rnd));
            case 3:
                return new PayloadFilter.MatchExcept(key, randomValues(rnd));
            case 4: {
                Double[] b = new Double[4];
                b[rnd.nextInt(4)] = BOUNDS[rnd.nextInt(BOUNDS.length)];
                for (int k = 0; k < 4; k++) {
                    if (rnd.nextInt(3) == 0) {
                        b[k] = BOUNDS[rnd.nextInt(BOUNDS.length)];
                    }
                }
                return range(key, b[0], b[1], b[2], b[3]);
            }
            case 5:
                return isEmpty(key);
            case 6:
                return isNull(key);
            case 7:
                return rnd.nextBoolean() ? all() : should();
            default:
                List<PayloadFilter> children = new ArrayList<>();
                for (int k = rnd.nextInt(4); k > 0; k--) {
                    children.add(randomFilter(rnd, depth - 1));
                }
                return kind == 8 ? new PayloadFilter.Must(children)
                        : kind == 9 ? new PayloadFilter.Should(children) : new PayloadFilter.MustNot(children);
        }
    }

    private static List<String> randomValues(Random rnd) {
        List<String> l = new ArrayList<>();
        for (int k = rnd.nextInt(4); k > 0; k--) {
            l.add(VALUES[rnd.nextInt(VALUES.length)]);
        }
        return l;
    }
}
