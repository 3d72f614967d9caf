package io.zkgroups.tool.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the doc checks read from one Markdown page: the {@code zkgroups} command lines it shows, its relative links
 * and the anchors its headings define. Pure functions of the page's text.
 */
final class Markdown {

    /** A command line, where it was found, and whether it stands alone (a code block) or is quoted in prose. */
    record Command(int line, List<String> args, boolean inBlock) {
    }

    /** A link to another page of the repository or to an anchor, where it was found. */
    record Link(int line, String target) {
    }

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern COMMAND = Pattern.compile("^(?:\\$\\s+)?(?:[\\w./-]*/)?zkgroups(\\s.*)?$");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    private Markdown() {
    }

    /**
     * The {@code zkgroups …} command lines of a page: each line of a code block that starts with {@code zkgroups} (or
     * a path ending in {@code /zkgroups}, or {@code $ zkgroups}), joined with its {@code \} continuations, and each
     * inline code span that starts so, whose first word is a command or an option. Left out: lines with shell syntax
     * that is not one command (pipes, substitutions, alternatives written {@code a|b}), synopses with optional parts
     * in brackets, and the launcher's own
     * {@code demo}.
     */
    static List<Command> commands(String page) {
        List<Command> commands = new ArrayList<>();
        String[] lines = page.split("\n", -1);
        boolean inBlock = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FENCE.matcher(line).find()) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock) {
                int first = i;
                StringBuilder joined = new StringBuilder(line.strip());
                while (joined.toString().endsWith("\\") && i + 1 < lines.length) {
                    joined.setLength(joined.length() - 1);
                    joined.append(' ').append(lines[++i].strip());
                }
                command(withoutComment(joined.toString()), first + 1, true).ifPresent(commands::add);
            } else {
                Matcher code = INLINE_CODE.matcher(line);
                while (code.find()) {
                    command(code.group(1).strip(), i + 1, false).ifPresent(commands::add);
                }
            }
        }
        return commands;
    }

    private static java.util.Optional<Command> command(String text, int line, boolean inBlock) {
        if (!COMMAND.matcher(text).matches() || text.contains("|") || text.contains("$(") || text.contains("`")
                || text.contains(">") || text.contains("&&") || text.contains(";")
                || text.contains(" [") || text.contains(" (")) { // a synopsis: zkgroups lag [--group G...]
            return java.util.Optional.empty();
        }
        List<String> words = words(text.replaceFirst("^\\$\\s+", ""));
        List<String> args = words.subList(1, words.size());
        if (!args.isEmpty() && (args.get(0).equals("demo") || !args.get(0).matches("-{0,2}[a-z][a-z-]*"))) {
            // the launcher runs the demo, not the command line; "zkgroups 10x100 join: ..." is a table row
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Command(line, List.copyOf(args), inBlock));
    }

    /** A shell line without its trailing {@code # comment}. */
    static String withoutComment(String line) {
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' && !dbl) {
                single = !single;
            } else if (c == '"' && !single) {
                dbl = !dbl;
            } else if (c == '#' && !single && !dbl && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    /** Splits a shell line into words as the shell would for plain words and quotes (no expansion). */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** The page's links that are not absolute URLs: other files of the repository, with or without an anchor. */
    static List<Link> relativeLinks(String page) {
        List<Link> links = new ArrayList<>();
        String[] lines = page.split("\n", -1);
        boolean inBlock = false;
        for (int i = 0; i < lines.length; i++) {
            if (FENCE.matcher(lines[i]).find()) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock) {
                continue;
            }
            Matcher link = LINK.matcher(lines[i]);
            while (link.find()) {
                String target = link.group(1);
                if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    links.add(new Link(i + 1, target));
                }
            }
        }
        return links;
    }

    /** The anchors a page's headings define, as GitHub makes them (a repeated heading gets -1, -2, …). */
    static Set<String> anchors(String page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inBlock = false;
        for (String line : page.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inBlock = !inBlock;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (!inBlock && heading.matches()) {
                String slug = slug(heading.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("`", "")
                .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link keeps its text
                .replaceAll("[*_]{1,2}([^*_]+)[*_]{1,2}", "$1")
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }
}
