package dev.neuraltext.treesitter;

import dev.neuraltext.treesitter.LanguageRules.DefinitionRule;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.treesitter.TSNode;
import org.treesitter.TSTreeCursor;

/**
 * Walks a syntax tree and finds its definitions by the language's {@link LanguageRules}: their symbols (nested as
 * {@code Outer.inner}), kinds, code lines, doc comments and statement boundaries. Iterative, with a depth and a node
 * budget, so that deep nesting or a huge tree cannot exhaust the stack or run unbounded: what lies beyond the budget
 * stays in the enclosing chunk. One instance per file; not thread-safe.
 */
final class DefinitionFinder {

    /** Deeper nodes are not searched for definitions (they stay in their enclosing chunk). */
    static final int MAX_DEPTH = 256;
    /** At most this many nodes are visited per file. */
    static final int MAX_NODES = 1_000_000;
    private static final int MAX_NAME_STEPS = 8;
    private static final int MAX_NAME_CHARS = 200;
    private static final int MAX_REEXPORTED_NAMES = 1000;
    private static final Set<String> KIND_WORDS = Set.of("class", "interface", "trait", "struct", "enum", "object",
            "protocol", "extension", "record", "actor", "union");

    private final LanguageRules rules;
    private final ParsedSource parsed;
    private final String text;
    private final SourceLines lines;
    private final TSTreeCursor cursor;
    private final List<Definition> topLevel = new ArrayList<>();
    private final List<Integer> topLevelStarts = new ArrayList<>();
    private final List<ReExport> reExports = new ArrayList<>();
    private String pkg = "";
    private int visited;

    private DefinitionFinder(LanguageRules rules, ParsedSource parsed, String text, SourceLines lines) {
        this.rules = rules;
        this.parsed = parsed;
        this.text = text;
        this.lines = lines;
        this.cursor = new TSTreeCursor(parsed.root());
    }

    /**
     * What a file holds: its top-level definitions (children nested), package, top-level statement starts, and the
     * names its top-level statements re-export.
     */
    record Found(List<Definition> definitions, String pkg, List<Integer> topLevelStarts, List<ReExport> reExports) {
    }

    /** Names a statement starting on {@code line} makes public here though they are defined elsewhere. */
    record ReExport(int line, List<String> names) {
    }

    /** The definitions of {@code text}, whose syntax tree {@code parsed} is. */
    static Found find(LanguageRules rules, ParsedSource parsed, String text, SourceLines lines) {
        DefinitionFinder f = new DefinitionFinder(rules, parsed, text, lines);
        f.walk(parsed.root());
        return new Found(f.topLevel, f.pkg, f.topLevelStarts, f.reExports);
    }

    private record Frame(TSNode node, Definition owner, int depth) {
    }

    private void walk(TSNode root) {
        for (TSNode c : namedChildren(root)) {
            topLevelStarts.add(lines.lineOf(parsed.start(c)));
            reExport(c);
        }
        Deque<Frame> stack = new ArrayDeque<>();
        pushChildren(stack, root, null, 0);
        while (!stack.isEmpty() && visited < MAX_NODES) {
            Frame f = stack.pop();
            visited++;
            TSNode node = f.node();
            String type = node.getType();
            if (pkg.isEmpty() && rules.packages().contains(type)) {
                pkg = nameText(node, 0);
            }
            DefinitionRule rule = matchingRule(node, type);
            if (rule == null) {
                if (f.depth() < MAX_DEPTH && !rules.opaque().contains(type)) {
                    pushChildren(stack, node, f.owner(), f.depth() + 1);
                }
                continue;
            }
            String name = name(node, rule);
            if (!plausibleName(name)) {
                if (f.depth() < MAX_DEPTH) {
                    pushChildren(stack, node, f.owner(), f.depth() + 1);
                }
                continue;
            }
            Definition d = define(node, rule, name, f.owner());
            if (d == null) {
                continue;
            }
            if (rule.container() && f.depth() < MAX_DEPTH) {
                pushChildren(stack, node, d, f.depth() + 1);
            }
        }
    }

    /**
     * Records the names {@code statement} re-exports when the language says its type re-exports and it has the
     * required child or field ({@code pub use a::{B, C as D}} gives B and D; {@code export { E } from "./e"} gives E):
     * per leaf of the statement, its alias, else the last segment of its path.
     */
    private void reExport(TSNode statement) {
        String type = statement.getType();
        String requires = rules.reExports().get(type);
        if (requires == null || hasErrorChild(statement)) {
            return;
        }
        List<TSNode> children = namedChildren(statement);
        if (!requires.isEmpty() && statement.getChildByFieldName(requires).isNull()
                && children.stream().noneMatch(c -> c.getType().equals(requires))) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (TSNode c : children) {
            if (!c.getType().equals(requires)) {
                exportedNames(c, names, 0);
            }
        }
        if (!names.isEmpty()) {
            reExports.add(new ReExport(lines.lineOf(parsed.start(statement)), List.copyOf(names)));
        }
    }

    private void exportedNames(TSNode n, List<String> out, int depth) {
        if (depth > MAX_NAME_STEPS * 2 || out.size() >= MAX_REEXPORTED_NAMES || n.getType().endsWith("wildcard")) {
            return; // a glob (a::*) names nothing
        }
        TSNode alias = n.getChildByFieldName("alias");
        if (!alias.isNull()) {
            out.add(clip(textOf(alias)));
            return;
        }
        TSNode list = n.getChildByFieldName("list");
        if (!list.isNull()) { // a::b::{C, D}: the names are in the list, not the path
            exportedNames(list, out, depth + 1);
            return;
        }
        TSNode name = n.getChildByFieldName("name");
        if (!name.isNull()) {
            out.add(clip(textOf(name)));
            return;
        }
        if (n.getNamedChildCount() == 0 && rules.isName(n.getType())) {
            out.add(clip(textOf(n)));
            return;
        }
        for (TSNode c : namedChildren(n)) {
            exportedNames(c, out, depth + 1);
        }
    }

    private void pushChildren(Deque<Frame> stack, TSNode node, Definition owner, int depth) {
        List<TSNode> children = namedChildren(node);
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(new Frame(children.get(i), owner, depth));
        }
    }

    /** The named children of {@code node} that are the file's (not {@link ParsedSource#isInserted inserted}). */
    private List<TSNode> namedChildren(TSNode node) {
        List<TSNode> out = new ArrayList<>();
        cursor.reset(node);
        if (cursor.gotoFirstChild()) {
            do {
                TSNode c = cursor.currentNode();
                if (c.isNamed() && !parsed.isInserted(c)) {
                    out.add(c);
                }
            } while (cursor.gotoNextSibling());
        }
        return out;
    }

    /**
     * The first rule matching {@code node}, or null. A node with a syntax error among its direct children is no
     * definition (tree-sitter's error recovery guessed its shape: in C++, a macro line before {@code namespace fmt}
     * reads as a function named {@code namespace}); the walk looks inside it instead.
     */
    private DefinitionRule matchingRule(TSNode node, String type) {
        List<DefinitionRule> candidates = rules.definitions().get(type);
        if (candidates == null || hasErrorChild(node)) {
            return null;
        }
        for (DefinitionRule r : candidates) {
            if (!r.targets().isEmpty()) {
                TSNode target = node.getChildByFieldName("target");
                if (target.isNull() || !r.targets().contains(textOf(target))) {
                    continue;
                }
            }
            if (!r.whenPath().isEmpty()) {
                TSNode w = path(node, r.whenPath());
                if (w == null || (!r.whenTypes().isEmpty() && !r.whenTypes().contains(w.getType()))) {
                    continue;
                }
            }
            return r;
        }
        return null;
    }

    private boolean hasErrorChild(TSNode node) {
        if (!node.hasError()) {
            return false;
        }
        for (TSNode c : namedChildren(node)) {
            if (c.isError()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A name with a space (other than an operator's) is a misparse: in C++, a macro before {@code namespace detail}
     * reads as a function named {@code namespace detail}; the walk looks inside it instead.
     */
    private static boolean plausibleName(String name) {
        return name.startsWith("operator") || name.chars().noneMatch(Character::isWhitespace);
    }

    private Definition define(TSNode node, DefinitionRule rule, String symbolName, Definition owner) {
        String name = symbolName;
        if (!rule.owner().isEmpty()) {
            TSNode o = path(node, rule.owner());
            String ownerName = o == null ? "" : firstOfType(o, "type_identifier");
            if (!ownerName.isEmpty()) {
                name = ownerName + "." + name;
            }
        }
        String symbol = owner == null ? name : owner.symbol + "." + name;
        String symbolType = rule.symbolType();
        boolean inType = owner != null && owner.symbolType.equals("type");
        if (symbolType.equals("function") && inType) {
            symbolType = "method";
        }
        if ((symbolType.equals("method") || symbolType.equals("function")) && rules.constructors().contains(name)) {
            symbolType = "constructor";
        }
        String kind = rule.kind().equals("keyword") ? keywordKind(node) : rule.kind();
        if ((kind.equals("function") || kind.equals("method")) && !symbolType.equals("function")) {
            kind = symbolType;
        }
        TSNode outer = node;
        while (!outer.getParent().isNull() && rules.wrappers().contains(outer.getParent().getType())) {
            outer = outer.getParent();
        }
        int start = lines.lineOf(parsed.start(outer));
        TSNode prev = previousNamedSibling(outer);
        while (prev != null && rules.leading().contains(prev.getType())) {
            start = lines.lineOf(parsed.start(prev));
            prev = previousNamedSibling(prev);
        }
        int end = lines.lastLineOf(parsed.start(node), parsed.end(outer));
        List<Definition> siblings = owner == null ? topLevel : owner.children;
        Definition last = siblings.isEmpty() ? null : siblings.get(siblings.size() - 1);
        if (rules.mergeClauses() && last != null && last.symbol.equals(symbol) && last.symbolType.equals(symbolType)) {
            last.endLine = Math.max(last.endLine, end);
            addCutLines(last, node, start);
            return null; // another clause of the same definition: no own chunk, no nested definitions
        }
        Definition d = new Definition(symbol, symbolType, kind, owner);
        d.startLine = start;
        d.endLine = end;
        int floor = Math.max(owner == null ? 0 : owner.startLine, last == null ? 0 : last.endLine);
        docAbove(d, prev, floor);
        docstring(d, node);
        addCutLines(d, node, start);
        siblings.add(d);
        return d;
    }

    private void addCutLines(Definition d, TSNode node, int start) {
        d.cutLines.add(start);
        for (TSNode c : namedChildren(node)) {
            d.cutLines.add(lines.lineOf(parsed.start(c)));
        }
        TSNode body = node.getChildByFieldName("body");
        if (!body.isNull()) {
            for (TSNode c : namedChildren(body)) {
                d.cutLines.add(lines.lineOf(parsed.start(c)));
            }
        }
    }

    /** The named sibling before {@code node} that is the file's, or null. */
    private TSNode previousNamedSibling(TSNode node) {
        TSNode prev = node.getPrevNamedSibling();
        return prev.isNull() || parsed.isInserted(prev) ? null : prev;
    }

    /** Doc comment lines right above the code, or a preceding doc sibling ({@code @doc}; {@code prev} may be null). */
    private void docAbove(Definition d, TSNode prev, int floor) {
        if (prev != null && !rules.docSiblings().isEmpty()) {
            String head = text.substring(parsed.start(prev), Math.min(parsed.end(prev),
                    parsed.start(prev) + 32));
            if (rules.docSiblings().stream().anyMatch(head::startsWith)) {
                int docStart = lines.lineOf(parsed.start(prev));
                if (docStart > floor) {
                    d.docStartLine = docStart;
                    d.docEndLine = lines.lastLineOf(parsed.start(prev), parsed.end(prev));
                    return;
                }
            }
        }
        int top = d.startLine;
        int l = d.startLine - 1;
        while (l > floor) {
            String s = lines.line(l).strip();
            if (rules.blockComment().size() == 2 && s.endsWith(rules.blockComment().get(1))) {
                int open = l;
                while (open > floor && !lines.line(open).strip().startsWith(rules.blockComment().get(0))) {
                    open--;
                }
                if (open <= floor) {
                    break;
                }
                top = open;
                l = open - 1;
            } else if (!s.isEmpty() && rules.lineComment().stream().anyMatch(s::startsWith)) {
                top = l;
                l--;
            } else {
                break;
            }
        }
        if (top < d.startLine) {
            d.docStartLine = top;
            d.docEndLine = d.startLine - 1;
        }
    }

    /** A doc string: the first statement of the docstring field, when it is a string (Python). */
    private void docstring(Definition d, TSNode node) {
        if (rules.docstring().isEmpty()) {
            return;
        }
        TSNode body = node.getChildByFieldName(rules.docstring());
        if (body.isNull() || body.getNamedChildCount() == 0) {
            return;
        }
        TSNode first = body.getNamedChild(0);
        if (first.getType().equals("expression_statement") && first.getNamedChildCount() == 1
                && first.getNamedChild(0).getType().equals("string")) {
            d.docstring = text.substring(parsed.start(first), Math.min(parsed.end(first), text.length()));
            d.docstringStartLine = lines.lineOf(parsed.start(first));
            d.docstringEndLine = lines.lastLineOf(parsed.start(first), parsed.end(first));
        }
    }

    private String name(TSNode node, DefinitionRule rule) {
        for (String p : rule.names()) {
            if (p.startsWith("=")) {
                return p.substring(1);
            }
            TSNode n = path(node, p);
            if (n != null) {
                String s = nameText(n, 0);
                if (!s.isEmpty()) {
                    return s;
                }
            }
        }
        for (TSNode c : namedChildren(node)) {
            if (rules.isName(c.getType())) {
                return clip(textOf(c));
            }
        }
        return rule.kind().equals("keyword") ? keywordKind(node) : rule.kind();
    }

    /** The name a node stands for: its own text if it is a name, else that of its name, target or first child. */
    private String nameText(TSNode n, int steps) {
        if (rules.isName(n.getType()) || steps >= MAX_NAME_STEPS) {
            return clip(textOf(n));
        }
        for (String field : List.of("name", "target", "declarator")) {
            TSNode f = n.getChildByFieldName(field);
            if (!f.isNull()) {
                return nameText(f, steps + 1);
            }
        }
        return n.getNamedChildCount() == 0 ? clip(textOf(n)) : nameText(n.getNamedChild(0), steps + 1);
    }

    /**
     * Follows a path: each step is a field name or, failing that, the first named child of that type; a step ending
     * in {@code *} follows its field as long as there is one. Null when a step finds nothing.
     */
    private TSNode path(TSNode node, String path) {
        TSNode cur = node;
        for (String step : path.split("\\.")) {
            if (step.endsWith("*")) {
                String field = step.substring(0, step.length() - 1);
                for (int i = 0; i < MAX_NAME_STEPS; i++) {
                    TSNode next = cur.getChildByFieldName(field);
                    if (next.isNull()) {
                        break;
                    }
                    cur = next;
                }
                continue;
            }
            TSNode next = cur.getChildByFieldName(step);
            if (next.isNull()) {
                next = null;
                for (TSNode c : namedChildren(cur)) {
                    if (c.getType().equals(step)) {
                        next = c;
                        break;
                    }
                }
            }
            if (next == null) {
                return null;
            }
            cur = next;
        }
        return cur;
    }

    private String firstOfType(TSNode node, String type) {
        Deque<TSNode> queue = new ArrayDeque<>();
        queue.add(node);
        for (int seen = 0; !queue.isEmpty() && seen < 64; seen++) {
            TSNode n = queue.poll();
            if (n.getType().equals(type)) {
                return clip(textOf(n));
            }
            queue.addAll(namedChildren(n));
        }
        return "";
    }

    /** The kind keyword of a declaration's first line ({@code data class} is a class, {@code enum class} an enum). */
    private String keywordKind(TSNode node) {
        int from = parsed.start(node);
        int to = Math.min(parsed.end(node), from + 200);
        for (String word : text.substring(from, to).split("[^A-Za-z_]+")) {
            String w = word.toLowerCase(Locale.ROOT);
            if (KIND_WORDS.contains(w)) {
                return w;
            }
        }
        return "type";
    }

    private String textOf(TSNode n) {
        int from = Math.max(0, Math.min(parsed.start(n), text.length()));
        int to = Math.max(from, Math.min(parsed.end(n), text.length()));
        return text.substring(from, Math.min(to, from + 4 * MAX_NAME_CHARS));
    }

    private static String clip(String s) {
        String one = s.strip();
        int nl = one.indexOf('\n');
        if (nl >= 0) {
            one = one.substring(0, nl).strip();
        }
        return one.length() > MAX_NAME_CHARS ? one.substring(0, MAX_NAME_CHARS) : one;
    }
}
