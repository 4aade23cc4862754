/**
 * Metadata filters with Qdrant's semantics: {@link dev.neuraltext.filter.PayloadFilter}, a sealed tree of records
 * evaluated in Java by the embedded store and translated one to one by the Qdrant store, and
 * {@link dev.neuraltext.filter.Payload}, the typed view of a chunk's metadata it is evaluated against.
 *
 * <p>Dependencies: {@code internal} only. Imported by the chunk model, stores, the retriever and the adapters. The
 * lexer, parser and formatter of the text syntax are package-private; reach them through
 * {@link dev.neuraltext.filter.PayloadFilter#parse(String)} and {@link dev.neuraltext.filter.PayloadFilter#toSyntax()}.
 *
 * <h2>The text syntax</h2>
 * The compact text syntax of {@link dev.neuraltext.filter.PayloadFilter}, for command lines and configuration: a parser
 * ({@link dev.neuraltext.filter.PayloadFilter#parse(String)}) and its inverse, a formatter ({@link dev.neuraltext.filter.PayloadFilter#toSyntax()}).
 *
 * <h3>Example</h3>
 * {@code type == 'method' and tags in ['http', 'retry'] and not path ~ 'test'} parses to
 * {@code must(matchKeyword("type", "method"), matchAny("tags", "http", "retry"), mustNot(matchText("path", "test")))}.
 *
 * <h3>Grammar</h3>
 * <pre>
 * filter    := [ or ]                                  (blank input: {@link dev.neuraltext.filter.PayloadFilter#all()})
 * or        := and { 'or' and }                        two or more operands: {@link dev.neuraltext.filter.PayloadFilter.Should}
 * and       := unary { 'and' unary }                   two or more operands: {@link dev.neuraltext.filter.PayloadFilter.Must}
 * unary     := 'not' unary                             {@link dev.neuraltext.filter.PayloadFilter.MustNot} of one child
 *            | '(' or ')' | 'true' | 'false' | condition
 * condition := key '==' value                          {@link dev.neuraltext.filter.PayloadFilter.MatchKeyword}
 *            | key '!=' value                          mustNot(matchKeyword)
 *            | key 'in' list                           {@link dev.neuraltext.filter.PayloadFilter.MatchAny}
 *            | key 'not' 'in' list                     mustNot(matchAny)
 *            | key 'except' list                       {@link dev.neuraltext.filter.PayloadFilter.MatchExcept}
 *            | key '~' string                          {@link dev.neuraltext.filter.PayloadFilter.MatchText} (substring)
 *            | key ( '&lt;' | '&lt;=' | '&gt;' | '&gt;=' ) number       {@link dev.neuraltext.filter.PayloadFilter.Range} with one bound
 *            | number ( '&lt;' | '&lt;=' ) key ( '&lt;' | '&lt;=' ) number  {@link dev.neuraltext.filter.PayloadFilter.Range} with two bounds
 *            | key 'is' [ 'not' ] ( 'empty' | 'null' )    {@link dev.neuraltext.filter.PayloadFilter.IsEmpty} / {@link dev.neuraltext.filter.PayloadFilter.IsNull},
 *                                                        with 'not': mustNot of it
 * list      := '[' [ value { ',' value } [ ',' ] ] ']'
 * value     := string | number                         a number stands for its text: {@code n == 42} is
 *                                                        {@code n == '42'}
 * key       := identifier | string                     quote keys that are keywords or hold other characters
 * </pre>
 * <ul>
 *   <li><b>Precedence</b>: {@code not} binds tighter than {@code and}, which binds tighter than {@code or};
 *       parentheses group. {@code a or b and not c} is {@code should(a, must(b, mustNot(c)))}. Operands of one
 *       {@code and} (or {@code or}) chain form one node; a parenthesised group stays a nested node.</li>
 *   <li><b>Keywords</b> ({@code and or not in except is empty null true false}) are case-insensitive and reserved:
 *       a field with such a name is written quoted ({@code 'in' == 'x'}).</li>
 *   <li><b>Identifiers</b> start with a letter or {@code _} and continue with letters, digits, {@code _}, {@code .}
 *       and {@code -} ({@code symbol-type}, {@code meta.kind}).</li>
 *   <li><b>Strings</b> are quoted with {@code '} or {@code "}; escapes: <code>\\ \' \" \n \r \t &#92;uXXXX</code>.</li>
 *   <li><b>Numbers</b>: {@code -?digits[.digits][e[+-]digits]} (also {@code .5}); range bounds must be finite.</li>
 *   <li><b>Negation</b>: {@code !=}, {@code not in} and {@code is not} are the logical negation of {@code ==},
 *       {@code in} and {@code is}, so they also match chunks without the field. {@code except} is Qdrant's
 *       {@code match: {except}}: the field is present and some value is outside the list.</li>
 *   <li>{@code true} is {@link dev.neuraltext.filter.PayloadFilter#all()} (an empty must); {@code false} is an empty should, which matches
 *       nothing.</li>
 * </ul>
 *
 * <h3>Errors</h3>
 * Malformed input throws {@link IllegalArgumentException} whose message starts with the 1-based column (in code
 * points) and says what was expected and what was found, e.g.
 * {@code column 9: expected a value (a quoted string or a number) after '==' but found end of input}. Nothing else is
 * ever thrown for a non-null input; nesting deeper than 200 levels is rejected.
 *
 * <h3>Formatting</h3>
 * {@link dev.neuraltext.filter.PayloadFilter#toSyntax()} writes a filter in this syntax. For every filter the parser produces,
 * {@code parse(format(f))} equals {@code f}; for other trees (a must or should of one child, a mustNot of several
 * children, a range with two lower or two upper bounds) it yields an equivalent filter of the parser's shape.
 *
 */
package dev.neuraltext.filter;
