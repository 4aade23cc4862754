package dev.neuraltext.cli.eval;

import java.util.List;
import java.util.Locale;

/** Standalone SVG charts for the HTML report, drawn by hand: no charting library, no script, no external resources. */
final class Svg {

    static final String FONT = "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif\"";
    private static final String[] COOL = {"#2563eb", "#0d9488", "#7c3aed", "#0891b2", "#4f46e5", "#059669",
        "#1d4ed8", "#0f766e", "#6d28d9", "#0e7490", "#4338ca", "#047857"};
    private static final String[] WARM = {"#ea580c", "#dc2626", "#d97706", "#be185d"};

    private Svg() {
    }

    /** A colour per series: neural-text techniques in cool colours, peers in warm ones. */
    static String color(int index, boolean peer) {
        String[] p = peer ? WARM : COOL;
        return p[index % p.length];
    }

    /** One labelled row of a bar table. */
    record Row(String label, String color, boolean peer, double[] values) {
    }

    /**
     * A bar table: one row per series, one column per slice, each cell a bar of length value / max with the value
     * written next to it; the best value of each column is bold.
     */
    static String barTable(String title, List<String> columns, List<Row> rows) {
        int labelW = 190;
        int colW = 128;
        int rowH = 24;
        int top = 58;
        int width = labelW + columns.size() * colW + 10;
        int height = top + rows.size() * rowH + 12;
        StringBuilder sb = open(width, height);
        sb.append(text(12, 22, title, 15, "600", "#111827", "start"));
        double max = 0;
        for (Row r : rows) {
            for (double v : r.values()) {
                if (Double.isFinite(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        max = max <= 0 ? 1 : max;
        for (int c = 0; c < columns.size(); c++) {
            int x = labelW + c * colW;
            sb.append(text(x + 4, top - 10, columns.get(c), 12, "600", "#374151", "start"));
            if (c % 2 == 0) {
                sb.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f8fafc\"/>%n", x, top - 4, colW,
                        rows.size() * rowH + 4));
            }
        }
        for (int c = 0; c < columns.size(); c++) {
            double best = Double.NEGATIVE_INFINITY;
            for (Row r : rows) {
                if (Double.isFinite(r.values()[c])) {
                    best = Math.max(best, r.values()[c]);
                }
            }
            for (int i = 0; i < rows.size(); i++) {
                Row r = rows.get(i);
                double v = r.values()[c];
                int x = labelW + c * colW + 4;
                int y = top + i * rowH;
                if (!Double.isFinite(v)) {
                    continue;
                }
                double w = (colW - 48) * v / max;
                sb.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"2\" fill=\"%s\" opacity=\"%s\">"
                                + "<title>%s, %s: %.3f</title></rect>%n",
                        x, y + 5, Math.max(w, 0.5), rowH - 10, r.color(), r.peer() ? "0.85" : "0.9", esc(r.label()),
                        esc(columns.get(c)), v));
                sb.append(text((int) (x + w + 4), y + rowH / 2 + 4, String.format(Locale.ROOT, "%.3f", v), 11,
                        v == best ? "700" : "400", v == best ? "#111827" : "#4b5563", "start"));
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            int y = top + i * rowH;
            sb.append(String.format(Locale.ROOT, "<circle cx=\"14\" cy=\"%d\" r=\"5\" fill=\"%s\"/>%n",
                    y + rowH / 2, r.color()));
            sb.append(text(26, y + rowH / 2 + 4, r.label(), 12, r.peer() ? "400" : "500", "#111827", "start",
                    r.peer() ? "italic" : "normal"));
            if (i > 0) {
                sb.append(String.format(Locale.ROOT,
                        "<line x1=\"8\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#e5e7eb\" stroke-width=\"1\"/>%n",
                        width - 4, y, y));
            }
        }
        return sb.append("</svg>\n").toString();
    }

    /** A point of the latency-quality scatter. */
    record Point(String label, String color, boolean peer, double x, double y) {
    }

    /** Latency (log scale) against quality, labelled points; up and left is better. */
    static String scatter(String title, String xLabel, String yLabel, List<Point> points) {
        int width = 820;
        int height = 440;
        int left = 64;
        int right = 190;
        int top = 44;
        int bottom = 52;
        int pw = width - left - right;
        int ph = height - top - bottom;
        double minX = Double.POSITIVE_INFINITY;
        double maxX = 0;
        double minY = Double.POSITIVE_INFINITY;
        double maxY = 0;
        for (Point p : points) {
            minX = Math.min(minX, Math.max(p.x(), 0.01));
            maxX = Math.max(maxX, Math.max(p.x(), 0.01));
            minY = Math.min(minY, p.y());
            maxY = Math.max(maxY, p.y());
        }
        if (points.isEmpty()) {
            minX = 0.1;
            maxX = 10;
            minY = 0;
            maxY = 1;
        }
        double lx0 = Math.floor(Math.log10(minX));
        double lx1 = Math.ceil(Math.log10(maxX));
        if (lx1 <= lx0) {
            lx1 = lx0 + 1;
        }
        double y0 = Math.max(0, Math.floor((minY - 0.05) * 10) / 10);
        double y1 = Math.min(1, Math.ceil((maxY + 0.05) * 10) / 10);
        if (y1 <= y0) {
            y1 = y0 + 0.1;
        }
        StringBuilder sb = open(width, height);
        sb.append(text(12, 22, title, 15, "600", "#111827", "start"));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f8fafc\" "
                + "stroke=\"#e5e7eb\"/>%n", left, top, pw, ph));
        for (double e = lx0; e <= lx1 + 1e-9; e++) {
            for (int m : new int[] {1, 2, 5}) {
                double v = m * Math.pow(10, e);
                double lv = Math.log10(v);
                if (lv > lx1 + 1e-9) {
                    continue;
                }
                double x = left + pw * (lv - lx0) / (lx1 - lx0);
                sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
                        + "stroke=\"%s\" stroke-width=\"1\"/>%n", x, x, top, top + ph, m == 1 ? "#d1d5db" : "#eceff3"));
                sb.append(text((int) x, top + ph + 16, fmtMs(v), 11, "400", "#4b5563", "middle"));
            }
        }
        for (double v = y0; v <= y1 + 1e-9; v += 0.1) {
            double y = top + ph - ph * (v - y0) / (y1 - y0);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e7eb\"/>%n",
                    left, left + pw, y, y));
            sb.append(text(left - 8, (int) y + 4, String.format(Locale.ROOT, "%.1f", v), 11, "400", "#4b5563", "end"));
        }
        sb.append(text(left + pw / 2, height - 12, xLabel, 12, "500", "#374151", "middle"));
        sb.append(String.format(Locale.ROOT, "<text transform=\"translate(16,%d) rotate(-90)\" font-size=\"12\" "
                + "font-weight=\"500\" fill=\"#374151\" text-anchor=\"middle\" %s>%s</text>%n", top + ph / 2, FONT,
                esc(yLabel)));
        // points, then a legend on the right (labels next to points would collide)
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            double x = left + pw * (Math.log10(Math.max(p.x(), 0.01)) - lx0) / (lx1 - lx0);
            double y = top + ph - ph * (p.y() - y0) / (y1 - y0);
            String shape = p.peer()
                    ? String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" "
                            + "transform=\"rotate(45 %.1f %.1f)\"", x - 5.5, y - 5.5, x, y)
                    : String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6.5\"", x, y);
            sb.append(shape).append(String.format(Locale.ROOT, " fill=\"%s\" fill-opacity=\"0.85\" stroke=\"white\" "
                    + "stroke-width=\"1.5\"><title>%s: %.3f at %s</title></%s>%n", p.color(), esc(p.label()), p.y(),
                    fmtMs(p.x()), p.peer() ? "rect" : "circle"));
            // alternate the number above and below so neighbours with nearly equal values stay readable
            sb.append(text((int) x + (i % 2 == 0 ? 0 : 10), (int) y + (i % 2 == 0 ? -9 : 15), String.valueOf(i + 1),
                    10, "700", p.color(), "middle"));
        }
        int ly = top + 6;
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            int lx = left + pw + 16;
            int y = ly + i * 18;
            if (p.peer()) {
                sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"8\" fill=\"%s\" "
                        + "transform=\"rotate(45 %d %d)\"/>%n", lx, y - 4, p.color(), lx + 4, y));
            } else {
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>%n", lx + 4, y,
                        p.color()));
            }
            sb.append(text(lx + 14, y + 4, (i + 1) + " " + p.label(), 11, "400", "#111827", "start",
                    p.peer() ? "italic" : "normal"));
        }
        return sb.append("</svg>\n").toString();
    }

    /** One stacked bar: the composition of the top k. */
    record Stack(String label, boolean peer, double[] parts) {
    }

    /** Horizontal 100% stacked bars with a legend. */
    static String stacked(String title, List<String> partNames, List<String> partColors, List<Stack> stacks) {
        int labelW = 190;
        int barW = 520;
        int rowH = 24;
        int top = 62;
        int width = labelW + barW + 30;
        int height = top + stacks.size() * rowH + 14;
        StringBuilder sb = open(width, height);
        sb.append(text(12, 22, title, 15, "600", "#111827", "start"));
        int lx = labelW;
        for (int i = 0; i < partNames.size(); i++) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"34\" width=\"12\" height=\"12\" rx=\"2\" "
                    + "fill=\"%s\"/>%n", lx, partColors.get(i)));
            sb.append(text(lx + 17, 44, partNames.get(i), 11, "400", "#374151", "start"));
            lx += 26 + partNames.get(i).length() * 6;
        }
        for (int i = 0; i < stacks.size(); i++) {
            Stack s = stacks.get(i);
            int y = top + i * rowH;
            sb.append(text(12, y + rowH / 2 + 4, s.label(), 12, s.peer() ? "400" : "500", "#111827", "start",
                    s.peer() ? "italic" : "normal"));
            double total = 0;
            for (double v : s.parts()) {
                total += Math.max(0, v);
            }
            double x = labelW;
            for (int p = 0; p < s.parts().length; p++) {
                double w = total <= 0 ? 0 : barW * Math.max(0, s.parts()[p]) / total;
                if (w <= 0) {
                    continue;
                }
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"><title>%s, %s: %.1f%%</title></rect>%n", x, y + 4, w, rowH - 8,
                        partColors.get(p), esc(s.label()), esc(partNames.get(p)), 100 * s.parts()[p]));
                if (w > 34) {
                    sb.append(text((int) (x + w / 2), y + rowH / 2 + 4, String.format(Locale.ROOT, "%.0f%%",
                            100 * s.parts()[p]), 10, "600", "white", "middle"));
                }
                x += w;
            }
        }
        return sb.append("</svg>\n").toString();
    }

    private static StringBuilder open(int width, int height) {
        return new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                        + "role=\"img\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                width, height, width, height));
    }

    private static String text(int x, int y, String s, int size, String weight, String fill, String anchor) {
        return text(x, y, s, size, weight, fill, anchor, "normal");
    }

    private static String text(int x, int y, String s, int size, String weight, String fill, String anchor,
            String style) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\" fill=\"%s\" "
                + "text-anchor=\"%s\" font-style=\"%s\" %s>%s</text>%n", x, y, size, weight, fill, anchor, style, FONT,
                esc(s));
    }

    static String fmtMs(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%.0f s", v / 1000);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.0f ms", v);
        }
        return String.format(Locale.ROOT, "%s ms", v >= 0.1 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v));
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
