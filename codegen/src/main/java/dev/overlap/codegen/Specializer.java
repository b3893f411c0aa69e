package dev.overlap.codegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes the {@code Long} twin of each {@code Int} template class of the library at build time (the way Agrona
 * generates its {@code Long*} collections from the {@code Int*} ones), so that a primitive twin has one source.
 *
 * <p><b>What changes.</b> The template is read as Java text, split into code, comments, string and character
 * literals, and rewritten token by token (whole identifiers only, so {@code point}, {@code print},
 * {@code interrupt}, {@code Integer.MAX_VALUE}'s neighbours and {@code ringFreeHint} keep their letters):
 * <ul>
 * <li>in code, {@code @Specialized int} becomes {@code long} (the marker is dropped) and {@code int[]} becomes
 * {@code long[]} (a template's {@code int[]} is always an element array); every other {@code int} stays: indices,
 * counts and sizes are unmarked;</li>
 * <li>{@code Integer} becomes {@code Long} in code and comments (so {@code Integer.BYTES} gives the item width);</li>
 * <li>a camel-case part {@code Int}/{@code Ints} of a name becomes {@code Long}/{@code Longs} ({@code getIntVolatile},
 * {@code allocateInts}, {@code intAggregator}), as does an {@code INT} part of a constant ({@code ItemType.INT});
 * a type name {@code IntX} is renamed only when {@code LongX} is a twin generated in the same run or {@code IntX}
 * is imported from {@code java.*} ({@code IntConsumer}): links to other hand-written classes stay as written;</li>
 * <li>in comments every word {@code int} becomes {@code long}, except inside a {@code {@link}} or {@code @see}
 * signature: a link to one of the template's own methods gets that method's twin signature (its marked parameters
 * {@code long}, the others as they are), a link to another class keeps its {@code int}s;</li>
 * <li>string literals get only the name renames ({@code "IntCounterRing of capacity "}); an
 * {@code import dev.overlap.core.Specialized;} and lines starting with {@code // template:} are left out.</li>
 * </ul>
 * The twin's class javadoc ends with a paragraph that names its template.
 * A template's file name starts with {@code Int}; its twin must not exist as a hand-written source.
 *
 * <p>Run by the library modules at {@code generate-sources} with the JDK's source launcher (no build of this module
 * is needed first): {@code java Specializer.java SOURCE_ROOT OUTPUT_ROOT dev/overlap/queues/IntCounterRing.java ...}.
 * A twin is written only when its text changed (so the compiler's stale-source check stays quiet), and any other
 * {@code .java} file under {@code OUTPUT_ROOT} (a twin whose template was dropped) is deleted.
 */
public final class Specializer {
    private static final String MARKER = "@Specialized";
    private static final Pattern MARKER_IMPORT =
        Pattern.compile("(?m)^import\\s+dev\\.overlap\\.core\\.Specialized\\s*;[ \\t]*\\R");
    private static final Pattern TEMPLATE_LINE = Pattern.compile("(?m)^[ \\t]*// template:.*\\R");
    private static final Pattern JDK_IMPORT = Pattern.compile("(?m)^import\\s+java\\.[\\w.]*\\.(Int\\w+)\\s*;");
    private static final Pattern CODE_TOKEN = Pattern.compile(
        "(" + MARKER + "\\s+int\\b)|(\\bint(?=\\s*\\[))|([0-9][\\w.]*)|([A-Za-z_$][\\w$]*)");
    private static final Pattern COMMENT_TOKEN = Pattern.compile(
        "((?:\\{@link(?:plain)?|@see)\\s+)([\\w.]*)#(\\w+)\\(([^)]*)\\)|([0-9][\\w.]*)|([A-Za-z_$][\\w$]*)");
    private static final Pattern NAME_TOKEN = Pattern.compile("([0-9][\\w.]*)|([A-Za-z_$][\\w$]*)");
    private static final Pattern DECLARATION = Pattern.compile(
        "(?<![\\w.])([A-Za-z_$][\\w$]*)\\s*\\(([^()]*)\\)\\s*(?:throws\\s+[\\w.,\\s]+)?\\{");
    /** Keywords that look like a declaration before a block; any other false match only adds a name no link uses. */
    private static final Set<String> NOT_DECLARATIONS =
        Set.of("if", "for", "while", "switch", "catch", "try", "return", "new");

    private Specializer() {
    }

    /**
     * Writes the twins.
     *
     * @param args the source root, the output root, then each template's path relative to the source root
     * @throws IOException if a file cannot be read or written
     */
    public static void main(final String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: Specializer SOURCE_ROOT OUTPUT_ROOT TEMPLATE.java...");
        }
        final Path sourceRoot = Path.of(args[0]);
        final Path outputRoot = Path.of(args[1]);
        final List<String> templates = List.of(args).subList(2, args.length);
        final Set<String> twins = new HashSet<>();
        for (final String template : templates) {
            twins.add(className(template));
        }
        final Set<Path> written = new LinkedHashSet<>();
        for (final String template : templates) {
            final String name = className(template);
            final String twin = twinName(name);
            final Path source = sourceRoot.resolve(template);
            final Path handWritten = source.resolveSibling(twin + ".java");
            if (Files.exists(handWritten)) {
                throw new IllegalStateException(handWritten + " is generated from " + name
                    + ".java: delete the hand-written copy");
            }
            final String text = specialize(Files.readString(source, StandardCharsets.UTF_8), name, twins);
            final Path target = outputRoot.resolve(template).resolveSibling(twin + ".java");
            final boolean same = Files.exists(target) && Files.readString(target, StandardCharsets.UTF_8).equals(text);
            if (!same) {
                Files.createDirectories(target.getParent());
                Files.writeString(target, text, StandardCharsets.UTF_8);
            }
            written.add(target.toAbsolutePath().normalize());
            System.out.println("codegen: " + twin + ".java from " + name + ".java" + (same ? " (unchanged)" : ""));
        }
        deleteStale(outputRoot, written);
    }

    private static void deleteStale(final Path outputRoot, final Set<Path> keep) throws IOException {
        if (!Files.isDirectory(outputRoot)) {
            return;
        }
        final List<Path> stale;
        try (Stream<Path> files = Files.walk(outputRoot)) {
            stale = files.filter(p -> p.toString().endsWith(".java"))
                .filter(p -> !keep.contains(p.toAbsolutePath().normalize()))
                .collect(Collectors.toList());
        }
        for (final Path p : stale) {
            Files.delete(p);
            System.out.println("codegen: deleted " + p + " (its template is gone)");
        }
    }

    /** @return the class name of a template path, checked to start with {@code Int} */
    static String className(final String templatePath) {
        final String file = Path.of(templatePath).getFileName().toString();
        if (!file.endsWith(".java") || !file.matches("Int[A-Z]\\w*\\.java")) {
            throw new IllegalArgumentException("a template is an IntXxx.java file, not " + templatePath);
        }
        return file.substring(0, file.length() - ".java".length());
    }

    /** @return {@code LongX} for {@code IntX} */
    static String twinName(final String template) {
        return "Long" + template.substring("Int".length());
    }

    /**
     * @param source   the template's text
     * @param template its class name ({@code IntX})
     * @param twins    the templates generated in the same run (their names are renamed wherever they appear)
     * @return the text of the {@code Long} twin
     */
    static String specialize(final String source, final String template, final Set<String> twins) {
        String text = MARKER_IMPORT.matcher(source).replaceAll("");
        text = TEMPLATE_LINE.matcher(text).replaceAll("");
        final Set<String> renamed = new HashSet<>(twins);
        final Matcher jdk = JDK_IMPORT.matcher(text);
        while (jdk.find()) {
            renamed.add(jdk.group(1));
        }
        final Names names = new Names(renamed);
        final List<Segment> segments = lex(text);
        final List<Declaration> declarations = declarations(segments, names);
        final StringBuilder out = new StringBuilder(text.length() + 128);
        out.append("// Generated by codegen (dev.overlap.codegen.Specializer) from ").append(template)
            .append(".java: edit the template, not this file.\n");
        for (final Segment s : segments) {
            switch (s.kind) {
                case CODE:
                    out.append(code(s.text, names));
                    break;
                case COMMENT:
                    out.append(comment(s.text, template, names, declarations));
                    break;
                case STRING:
                    out.append(string(s.text, names));
                    break;
                default:
                    out.append(s.text);
            }
        }
        final String result = noteOrigin(out.toString(), template);
        if (result.contains(MARKER)) {
            throw new IllegalArgumentException(template + ": " + MARKER + " must stand right before an int");
        }
        return result;
    }

    /** Ends the twin's class javadoc (if it has one) with a paragraph naming its template. */
    private static String noteOrigin(final String twin, final String template) {
        final Matcher declaration = Pattern.compile("\\bclass\\s+" + twinName(template) + "\\b").matcher(twin);
        final int close = declaration.find() ? twin.lastIndexOf("*/", declaration.start()) : -1;
        final int lineStart = twin.lastIndexOf('\n', close) + 1;
        if (close < 0 || !twin.substring(lineStart, close).isBlank()
            || !twin.substring(close + 2, declaration.start()).matches("\\s*(public\\s+)?(final\\s+)?")) {
            return twin;
        }
        final String indent = twin.substring(lineStart, close);
        return twin.substring(0, lineStart) + indent + "*\n" + indent + "* <p>Generated at build time from {@link "
            + template + "}: the same code with {@code long} elements.\n" + twin.substring(lineStart);
    }

    private static String code(final String text, final Names names) {
        final Matcher m = CODE_TOKEN.matcher(text);
        final StringBuilder out = new StringBuilder(text.length() + 16);
        while (m.find()) {
            final String replacement;
            if (m.group(1) != null || m.group(2) != null) {
                replacement = "long";
            } else if (m.group(3) != null || "int".equals(m.group(4))) {
                replacement = m.group();
            } else {
                replacement = names.rename(m.group(4), true);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String comment(final String text, final String template, final Names names,
        final List<Declaration> declarations) {
        final Matcher m = COMMENT_TOKEN.matcher(text);
        final StringBuilder out = new StringBuilder(text.length() + 16);
        while (m.find()) {
            final String replacement;
            if (m.group(1) != null) {
                replacement = link(m, template, names, declarations);
            } else if (m.group(5) != null) {
                replacement = m.group();
            } else {
                replacement = "int".equals(m.group(6)) ? "long" : names.rename(m.group(6), true);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A {@code {@link Type#member(params)}} (or {@code @see}) with its parameter list. */
    private static String link(final Matcher m, final String template, final Names names,
        final List<Declaration> declarations) {
        final String type = m.group(2);
        final String member = m.group(3);
        final String params = m.group(4);
        final StringBuilder out = new StringBuilder(m.group(1)).append(names.renameAll(type)).append('#')
            .append(names.rename(member, true)).append('(');
        if (!type.isEmpty() && !type.equals(template)) {
            return out.append(names.renameAll(params)).append(')').toString(); // another class: its ints stay
        }
        final List<String> wanted = splitParameters(params).stream().map(p -> p.replaceAll("\\s+", ""))
            .collect(Collectors.toList());
        for (final Declaration d : declarations) {
            if (d.name.equals(member) && d.templateTypes.equals(wanted)) {
                return out.append(String.join(", ", d.twinTypes)).append(')').toString();
            }
        }
        throw new IllegalArgumentException(template + ": " + m.group().trim() + " names no method of " + template);
    }

    private static String string(final String text, final Names names) {
        final Matcher m = NAME_TOKEN.matcher(text);
        final StringBuilder out = new StringBuilder(text.length() + 16);
        while (m.find()) {
            final String name = m.group(2);
            final String replacement = name == null || name.equals("int") ? m.group() : names.rename(name, false);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The template's methods and constructors, with their parameter types in the template and in the twin. */
    private static List<Declaration> declarations(final List<Segment> segments, final Names names) {
        final StringBuilder code = new StringBuilder();
        for (final Segment s : segments) {
            code.append(s.kind == Kind.CODE ? s.text : " ".repeat(s.text.length()));
        }
        final List<Declaration> found = new ArrayList<>();
        final Matcher m = DECLARATION.matcher(code);
        while (m.find()) {
            if (NOT_DECLARATIONS.contains(m.group(1))) {
                continue;
            }
            final List<String> templateTypes = new ArrayList<>();
            final List<String> twinTypes = new ArrayList<>();
            for (final String parameter : splitParameters(m.group(2))) {
                final String type = parameter.replaceAll("@[\\w.]+|\\bfinal\\b", " ").trim()
                    .replaceAll("\\s*[A-Za-z_$][\\w$]*$", "").replaceAll("\\s+", "");
                templateTypes.add(type);
                twinTypes.add(code(parameter.contains(MARKER) ? MARKER + " " + type : type, names)
                    .replaceAll("\\s+", ""));
            }
            found.add(new Declaration(m.group(1), templateTypes, twinTypes));
        }
        return found;
    }

    private static List<String> splitParameters(final String parameters) {
        final List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < parameters.length(); i++) {
            final char c = parameters.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(parameters.substring(from, i).trim());
                from = i + 1;
            }
        }
        final String last = parameters.substring(from).trim();
        if (!last.isEmpty() || !out.isEmpty()) {
            out.add(last);
        }
        return out;
    }

    /** Splits Java source into code, comments, string literals (text blocks too) and character literals. */
    static List<Segment> lex(final String text) {
        final List<Segment> out = new ArrayList<>();
        final int n = text.length();
        int codeFrom = 0;
        int i = 0;
        while (i < n) {
            final char c = text.charAt(i);
            final char next = i + 1 < n ? text.charAt(i + 1) : '\0';
            final int end;
            final Kind kind;
            if (c == '/' && next == '/') {
                final int newline = text.indexOf('\n', i);
                end = newline < 0 ? n : newline;
                kind = Kind.COMMENT;
            } else if (c == '/' && next == '*') {
                final int close = text.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
                kind = Kind.COMMENT;
            } else if (c == '"' && text.startsWith("\"\"\"", i)) {
                final int close = text.indexOf("\"\"\"", i + 3);
                end = close < 0 ? n : close + 3;
                kind = Kind.STRING;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                end = Math.min(n, j + 1);
                kind = c == '"' ? Kind.STRING : Kind.CHAR;
            } else {
                i++;
                continue;
            }
            if (codeFrom < i) {
                out.add(new Segment(Kind.CODE, text.substring(codeFrom, i)));
            }
            out.add(new Segment(kind, text.substring(i, end)));
            i = end;
            codeFrom = end;
        }
        if (codeFrom < n) {
            out.add(new Segment(Kind.CODE, text.substring(codeFrom)));
        }
        return out;
    }

    enum Kind { CODE, COMMENT, STRING, CHAR }

    static final class Segment {
        final Kind kind;
        final String text;

        Segment(final Kind kind, final String text) {
            this.kind = kind;
            this.text = text;
        }
    }

    private static final class Declaration {
        final String name;
        final List<String> templateTypes;
        final List<String> twinTypes;

        Declaration(final String name, final List<String> templateTypes, final List<String> twinTypes) {
            this.name = name;
            this.templateTypes = templateTypes;
            this.twinTypes = twinTypes;
        }
    }

    /** The renaming of names: types, camel-case parts, constants. */
    static final class Names {
        private final Set<String> renamedTypes;

        Names(final Set<String> renamedTypes) {
            this.renamedTypes = renamedTypes;
        }

        /** Renames every name in {@code text} (no {@code int} becomes {@code long}). */
        String renameAll(final String text) {
            final Matcher m = NAME_TOKEN.matcher(text);
            final StringBuilder out = new StringBuilder(text.length() + 8);
            while (m.find()) {
                final String name = m.group(2);
                m.appendReplacement(out, Matcher.quoteReplacement(name == null ? m.group() : rename(name, true)));
            }
            m.appendTail(out);
            return out.toString();
        }

        /**
         * @param name  one whole identifier, not {@code int}
         * @param boxed whether {@code Integer} becomes {@code Long} (code and comments, not string literals)
         * @return its twin's spelling
         */
        String rename(final String name, final boolean boxed) {
            if (name.equals("Integer")) {
                return boxed ? "Long" : name;
            }
            if (name.matches("Int[A-Z0-9][\\w$]*")) {
                return renamedTypes.contains(name) ? twinName(name) : name;
            }
            if (name.matches("[A-Z][A-Z0-9_]*")) {
                return String.join("_", renameParts(name.split("_", -1), "INT", "LONG"));
            }
            final String[] parts = name.split("(?<=[a-z0-9$])(?=[A-Z])");
            if (parts.length > 1 && (parts[0].equals("int") || parts[0].equals("ints"))) {
                parts[0] = "long" + parts[0].substring(3);
            }
            return String.join("", renameParts(parts, "Int", "Long"));
        }

        private static String[] renameParts(final String[] parts, final String from, final String to) {
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].equals(from) || parts[i].equals(from + (from.equals("INT") ? "S" : "s"))) {
                    parts[i] = to + parts[i].substring(from.length());
                }
            }
            return parts;
        }
    }
}
