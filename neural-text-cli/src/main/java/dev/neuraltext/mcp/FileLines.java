package dev.neuraltext.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a line range of a text file for {@code get} in bounded memory, whatever the file: only the lines asked for are
 * kept, at most {@code capChars} characters of them, and the rest of the file is only counted (lines end at
 * {@code \n}, {@code \r} or {@code \r\n}, as {@link Files#readAllLines} counts them). A file that changes while it is
 * read gives the lines as read. Stateless.
 */
final class FileLines {

    private FileLines() {
    }

    /**
     * A line range as read.
     *
     * @param text       the lines {@code startLine..lastLine}, joined with {@code \n}
     * @param lastLine   the last line returned (the file's end or the cap can make it less than asked for)
     * @param totalLines the file's lines
     * @param capped     whether the cap cut the range short
     * @param lineCut    whether the first line alone passed the cap and is returned cut
     */
    record Read(String text, int lastLine, int totalLines, boolean capped, boolean lineCut) {
    }

    /**
     * Reads lines {@code start..end} (1-based, inclusive) of a UTF-8 file.
     *
     * @throws java.nio.charset.CharacterCodingException if the file is not UTF-8
     */
    static Read read(Path file, int start, int end, int capChars) throws IOException {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        Range range = new Range(start, end, capChars);
        boolean afterCr = false;
        char[] buf = new char[16_384];
        try (Reader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder), 65_536)) {
            int n;
            while ((n = r.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    char c = buf[i];
                    if (c == '\n' && afterCr) {
                        afterCr = false;
                        continue;
                    }
                    afterCr = c == '\r';
                    if (c == '\n' || c == '\r') {
                        range.endLine();
                    } else {
                        range.add(c);
                    }
                }
            }
        }
        if (range.pending) {
            range.endLine();
        }
        return new Read(range.out.toString(), range.last, range.lineNo - 1, range.capped, range.lineCut);
    }

    /** The lines kept so far and where the reading is. */
    private static final class Range {
        final int start;
        final int end;
        final int capChars;
        final StringBuilder out = new StringBuilder();
        final StringBuilder line = new StringBuilder();
        boolean lineOverCap;
        boolean capped;
        boolean lineCut;
        boolean pending;
        int last;
        int lineNo = 1;

        Range(int start, int end, int capChars) {
            this.start = start;
            this.end = end;
            this.capChars = capChars;
            this.last = start - 1;
        }

        boolean keeping() {
            return lineNo >= start && lineNo <= end && !capped;
        }

        void add(char c) {
            pending = true;
            if (keeping()) {
                if (line.length() < capChars) {
                    line.append(c);
                } else {
                    lineOverCap = true;
                }
            }
        }

        void endLine() {
            if (keeping()) {
                int sep = lineNo > start ? 1 : 0;
                if (lineOverCap || out.length() + sep + line.length() > capChars) {
                    capped = true;
                    if (lineNo == start) {
                        out.append(line, 0, Math.min(line.length(), capChars));
                        last = lineNo;
                        lineCut = true;
                    }
                } else {
                    out.append(sep == 1 ? "\n" : "").append(line);
                    last = lineNo;
                }
            }
            line.setLength(0);
            lineOverCap = false;
            pending = false;
            lineNo++;
        }
    }
}
