package dev.neuraltext.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.neuraltext.Fuzz;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random filters, deep nesting included: parsing either gives a filter that round-trips through its syntax,
 * or an {@link IllegalArgumentException}; nothing else, never a stack overflow.
 */
class PayloadFilterFuzzTest {

    private static final String[] CONDITIONS = {"a == 'x'", "b != 1", "tags in ['x', 'y']", "tags not in []",
        "a except ['1']", "a ~ 'x'", "n < 3", "0 <= n < 1.5", "tags is empty", "a is not null", "true", "false",
        "a ==", "(", ")", "'", "not", "and", "or", "[", "\u0000", "\uD800"};

    private static String randomFilter(Random random) {
        StringBuilder sb = new StringBuilder();
        int depth = random.nextInt(10) == 0 ? random.nextInt(20_000) : random.nextInt(6);
        boolean balanced = random.nextInt(4) > 0;
        sb.append("(".repeat(depth));
        int terms = 1 + random.nextInt(5);
        for (int t = 0; t < terms; t++) {
            if (t > 0) {
                sb.append(random.nextBoolean() ? " and " : " or ");
            }
            if (random.nextInt(5) == 0) {
                sb.append("not ".repeat(1 + random.nextInt(random.nextInt(10) == 0 ? 5_000 : 3)));
            }
            sb.append(CONDITIONS[random.nextInt(CONDITIONS.length)]);
        }
        sb.append(")".repeat(balanced ? depth : random.nextInt(depth + 1)));
        return sb.toString();
    }

    @Test
    void parsingGivesARoundTrippingFilterOrIllegalArgumentNeverAnythingElse() {
        int n = Fuzz.run("filter parser", 5_000, 2_500, (random, i) -> {
            String text = randomFilter(random);
            PayloadFilter parsed;
            try {
                parsed = PayloadFilter.parse(text);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).isNotBlank();
                return;
            } catch (RuntimeException e) {
                fail("unexpected " + e + " for a filter of " + text.length() + " characters", e);
                return;
            }
            assertThat(PayloadFilter.parse(parsed.toSyntax())).isEqualTo(parsed);
        });
        assertThat(n).isPositive();
    }
}
