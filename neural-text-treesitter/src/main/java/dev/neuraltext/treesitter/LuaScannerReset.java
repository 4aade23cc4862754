package dev.neuraltext.treesitter;

import org.treesitter.TSLanguage;
import org.treesitter.TSNode;

/**
 * Works around a native bug of the Lua grammar ({@code io.github.bonede:tree-sitter-lua} 2.1.3a, the external
 * scanner of tree-sitter-lua 2.1.3): the scanner's {@code create} returns {@code malloc}ed, uninitialized state
 * ({@code started}, {@code depth}), and its {@code deserialize} ignores the empty state that tree-sitter hands it at
 * the start of a parse instead of resetting. tree-sitter 0.26 creates the scanner anew for every parse, so each parse
 * starts from whatever bytes the native heap held there, which depend on what this JVM parsed and freed before. A
 * nonzero {@code started} makes the scanner report a string start where an expression starts ({@code local ffi =
 * require("ffi")} reads as {@code local ffi = ""} and errors) until the first real comment or string overwrites it:
 * chunks of a Lua file changed with the files chunked before it (lazy.nvim: 486 / 482 / 476 chunks over three index
 * runs). Parsers, trees and the Java binding are not involved; no Java call can reach the scanner's memory.
 *
 * <p>The scanner overwrites its whole state when it reads a comment start from its neutral branch, which it takes for
 * any stale value but its own five "inside a comment or string" codes. So the parser reads the file with an empty
 * long comment {@value #RESET_COMMENT} in front (after a {@code #} first line, which Lua only allows first): the
 * scanner's first token then sets its state, and the rest of the file is read as from a clean start. The comment has
 * no newline, so lines keep their numbers; {@link ParsedSource} moves offsets back and marks the comment as not the
 * file's. When the stale state was one of those five codes, the comment is not read as a comment; {@link #tookEffect}
 * sees that and the file is parsed again (the new scanner gets other bytes). Harmless for a grammar whose scanner
 * does initialize its state: then it can go.
 */
final class LuaScannerReset {

    /** An empty long comment: its start token sets the scanner's kind of token and its depth; no newline. */
    static final String RESET_COMMENT = "--[[]]";
    /** Parses of one file before it is given up on (each gets a new scanner allocation). */
    static final int MAX_ATTEMPTS = 3;

    private static final String GRAMMAR_CLASS = "org.treesitter.TreeSitterLua";

    private LuaScannerReset() {
    }

    /** Whether {@code language}'s scanner needs the reset comment. */
    static boolean appliesTo(TSLanguage language) {
        return language.getClass().getName().equals(GRAMMAR_CLASS);
    }

    /** Where the reset comment goes in {@code text}: first, or after a first line starting with {@code #}. */
    static int insertionPoint(String text) {
        if (!text.startsWith("#")) {
            return 0;
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text.length() : newline + 1;
    }

    /** {@code text} with the reset comment at {@code at}. */
    static String withResetComment(String text, int at) {
        return text.substring(0, at) + RESET_COMMENT + text.substring(at);
    }

    /**
     * Whether the reset comment was read as a comment (so the scanner's state was set by it), with nothing before it
     * misread: a {@code comment} child of the root exactly where it was inserted, without errors.
     */
    static boolean tookEffect(ParsedSource parsed) {
        TSNode root = parsed.root();
        int from = 2 * parsed.insertedAt();
        TSNode comment = root.getFirstNamedChildForByte(from);
        if (comment.isNull() || !comment.getType().equals("comment") || comment.hasError()
                || comment.getStartByte() != from || comment.getEndByte() != from + 2 * RESET_COMMENT.length()) {
            return false;
        }
        for (TSNode before = comment.getPrevNamedSibling(); !before.isNull(); before = before.getPrevNamedSibling()) {
            if (before.hasError()) {
                return false;
            }
        }
        return true;
    }
}
