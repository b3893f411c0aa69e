package dev.overlap.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small document model rendered both as GitHub Markdown and as standalone (well-formed XML) HTML. Text in
 * paragraphs, list items and table cells uses a tiny inline syntax: {@code `code`}, {@code **bold**},
 * {@code [text](href)} and {@code !!alert!!} (bold in Markdown, bold red in HTML).
 */
final class Doc {
    /** Column alignment. */
    enum Align { LEFT, RIGHT }

    sealed interface Block permits Heading, Para, Table, Image, Bullets {
    }

    record Heading(int level, String text) implements Block {
    }

    record Para(String text) implements Block {
    }

    record Table(List<String> header, List<Align> align, List<List<String>> rows) implements Block {
    }

    record Image(String src, String alt) implements Block {
    }

    record Bullets(List<String> items) implements Block {
    }

    private final List<Block> blocks = new ArrayList<>();

    Doc heading(final int level, final String text) {
        blocks.add(new Heading(level, text));
        return this;
    }

    Doc para(final String text) {
        blocks.add(new Para(text));
        return this;
    }

    Doc table(final List<String> header, final List<Align> align, final List<List<String>> rows) {
        blocks.add(new Table(List.copyOf(header), List.copyOf(align), rows.stream().map(List::copyOf).toList()));
        return this;
    }

    Doc image(final String src, final String alt) {
        blocks.add(new Image(src, alt));
        return this;
    }

    Doc bullets(final List<String> items) {
        blocks.add(new Bullets(List.copyOf(items)));
        return this;
    }

    List<Block> blocks() {
        return blocks;
    }

    /** @return GitHub's anchor for a heading text */
    static String anchor(final String heading) {
        return stripInline(heading).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    private static String stripInline(final String s) {
        return s.replace("`", "").replace("**", "").replace("!!", "").replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");
    }

    // ---------------------------------------------------------------- Markdown

    String toMarkdown() {
        final StringBuilder sb = new StringBuilder();
        for (final Block b : blocks) {
            if (b instanceof Heading h) {
                sb.append("#".repeat(h.level())).append(' ').append(mdInline(h.text())).append("\n\n");
            } else if (b instanceof Para p) {
                sb.append(mdInline(p.text())).append("\n\n");
            } else if (b instanceof Bullets l) {
                for (final String item : l.items()) {
                    sb.append("- ").append(mdInline(item)).append('\n');
                }
                sb.append('\n');
            } else if (b instanceof Image i) {
                sb.append("![").append(i.alt().replace("]", "\\]")).append("](").append(i.src()).append(")\n\n");
            } else if (b instanceof Table t) {
                mdRow(sb, t.header());
                sb.append('|');
                for (final Align a : t.align()) {
                    sb.append(a == Align.RIGHT ? " ---: |" : " --- |");
                }
                sb.append('\n');
                for (final List<String> row : t.rows()) {
                    mdRow(sb, row);
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static void mdRow(final StringBuilder sb, final List<String> cells) {
        sb.append('|');
        for (final String c : cells) {
            sb.append(' ').append(mdInline(c).replace("|", "\\|").replace("\n", " ")).append(" |");
        }
        sb.append('\n');
    }

    private static String mdInline(final String s) {
        return s.replaceAll("!!(.+?)!!", "**$1**");
    }

    // ---------------------------------------------------------------- HTML

    private static final Pattern INLINE = Pattern.compile(
        "`([^`]+)`|\\*\\*(.+?)\\*\\*|!!(.+?)!!|\\[([^]]+)]\\(([^)\\s]+)\\)");

    String toHtml(final String title) {
        final StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>")
            .append(esc(title)).append("</title>\n<style>\n")
            .append("body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;")
            .append("margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\n")
            .append("table{border-collapse:collapse;margin:0.5em 0 1.2em;font-size:0.9em}\n")
            .append("th,td{border:1px solid #ccc;padding:3px 8px}th{background:#f3f3f3}\n")
            .append("td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}\n")
            .append("code{background:#f3f3f3;padding:0 3px;border-radius:3px}\n")
            .append(".bad{color:#c00}img{max-width:100%;margin:0.5em 0}\n")
            .append("h2{border-bottom:1px solid #ddd;padding-bottom:0.2em;margin-top:1.8em}\n")
            .append("</style>\n</head>\n<body>\n");
        for (final Block b : blocks) {
            if (b instanceof Heading h) {
                sb.append("<h").append(h.level()).append(" id=\"").append(esc(anchor(h.text()))).append("\">")
                    .append(htmlInline(h.text())).append("</h").append(h.level()).append(">\n");
            } else if (b instanceof Para p) {
                sb.append("<p>").append(htmlInline(p.text())).append("</p>\n");
            } else if (b instanceof Bullets l) {
                sb.append("<ul>\n");
                for (final String item : l.items()) {
                    sb.append("<li>").append(htmlInline(item)).append("</li>\n");
                }
                sb.append("</ul>\n");
            } else if (b instanceof Image i) {
                sb.append("<p><img src=\"").append(esc(i.src())).append("\" alt=\"").append(esc(i.alt()))
                    .append("\"/></p>\n");
            } else if (b instanceof Table t) {
                sb.append("<table>\n<thead><tr>");
                for (int c = 0; c < t.header().size(); c++) {
                    sb.append(t.align().get(c) == Align.RIGHT ? "<th class=\"r\">" : "<th>")
                        .append(htmlInline(t.header().get(c))).append("</th>");
                }
                sb.append("</tr></thead>\n<tbody>\n");
                for (final List<String> row : t.rows()) {
                    sb.append("<tr>");
                    for (int c = 0; c < row.size(); c++) {
                        final boolean right = c < t.align().size() && t.align().get(c) == Align.RIGHT;
                        sb.append(right ? "<td class=\"r\">" : "<td>").append(htmlInline(row.get(c))).append("</td>");
                    }
                    sb.append("</tr>\n");
                }
                sb.append("</tbody>\n</table>\n");
            }
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    static String htmlInline(final String s) {
        final StringBuilder sb = new StringBuilder();
        final Matcher m = INLINE.matcher(s);
        int last = 0;
        while (m.find()) {
            sb.append(esc(s.substring(last, m.start())));
            if (m.group(1) != null) {
                sb.append("<code>").append(esc(m.group(1))).append("</code>");
            } else if (m.group(2) != null) {
                sb.append("<strong>").append(htmlInline(m.group(2))).append("</strong>");
            } else if (m.group(3) != null) {
                sb.append("<strong class=\"bad\">").append(htmlInline(m.group(3))).append("</strong>");
            } else {
                String href = m.group(5);
                if (href.startsWith("#")) {
                    href = "#" + href.substring(1);
                }
                sb.append("<a href=\"").append(esc(href)).append("\">").append(htmlInline(m.group(4))).append("</a>");
            }
            last = m.end();
        }
        sb.append(esc(s.substring(last)));
        return sb.toString();
    }

    /** @return {@code s} escaped for XML/HTML text and attributes */
    static String esc(final String s) {
        final StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        sb.append(' ');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
