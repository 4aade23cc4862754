package dev.neuraltext.treesitter;

import java.util.ArrayList;
import java.util.List;

/**
 * One definition found in a syntax tree, with its lines. Mutable while {@link DefinitionFinder} builds it (clauses
 * merge into it, children are added), then read by {@link ChunkAssembler}; never shared between threads.
 */
final class Definition {

    final String symbol;
    final String symbolType;
    final String kind;
    final Definition parent;
    final List<Definition> children = new ArrayList<>();
    /** First and last code line, 1-based inclusive (wrappers and leading attributes included, doc excluded). */
    int startLine;
    int endLine;
    /** Doc comment lines above the code, or 0 when none. */
    int docStartLine;
    int docEndLine;
    /** A doc string inside the code (Python), its lines and text; 0 and "" when none. */
    int docstringStartLine;
    int docstringEndLine;
    String docstring = "";
    /** Lines at which a too-long definition may be cut: the starts of its statements. */
    final List<Integer> cutLines = new ArrayList<>();

    Definition(String symbol, String symbolType, String kind, Definition parent) {
        this.symbol = symbol;
        this.symbolType = symbolType;
        this.kind = kind;
        this.parent = parent;
    }

    /** The first line this definition takes, its doc comment included. */
    int firstLine() {
        return docStartLine > 0 ? docStartLine : startLine;
    }
}
