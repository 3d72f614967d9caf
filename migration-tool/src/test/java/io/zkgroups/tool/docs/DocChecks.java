package io.zkgroups.tool.docs;

import io.zkgroups.tool.cli.ZkGroupsCommand;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks one Markdown page of the repository against the code and the other pages: every {@code zkgroups} command line
 * parses with the current command line (a value may be a placeholder in capitals, {@code --samples N}; one quoted in
 * prose may leave out required options), every relative link
 * names a file that exists and, for a Markdown page, an anchor it defines, and every version of a zkgroups artifact in
 * a snippet is the build's.
 */
final class DocChecks {

    private static final Pattern MAVEN_VERSION = Pattern.compile(
            "<groupId>io\\.zkgroups</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern GRADLE_VERSION = Pattern.compile("\"io\\.zkgroups:([\\w-]+):([^\"]+)\"");

    private final Path root;
    private final String version;

    DocChecks(Path root, String version) {
        this.root = root;
        this.version = version;
    }

    /** What is wrong with {@code page} (a file under the root) whose text is {@code text}: one line per problem. */
    List<String> problems(Path page, String text) {
        List<String> problems = new ArrayList<>();
        String where = root.relativize(page).toString();
        for (Markdown.Command command : Markdown.commands(text)) {
            String problem = parseProblem(command);
            if (problem != null) {
                problems.add(where + ":" + command.line() + ": `zkgroups " + String.join(" ", command.args()) + "`: "
                        + problem);
            }
        }
        for (Markdown.Link link : Markdown.relativeLinks(text)) {
            String problem = linkProblem(page, text, link.target());
            if (problem != null) {
                problems.add(where + ":" + link.line() + ": link " + link.target() + ": " + problem);
            }
        }
        versionProblems(where, text, MAVEN_VERSION, problems);
        versionProblems(where, text, GRADLE_VERSION, problems);
        return problems;
    }

    private static String parseProblem(Markdown.Command command) {
        try {
            new CommandLine(new ZkGroupsCommand()).setCaseInsensitiveEnumValuesAllowed(true)
                    .parseArgs(command.args().toArray(String[]::new));
            return null;
        } catch (CommandLine.MissingParameterException e) {
            return command.inBlock() ? e.getMessage() : null; // prose may name an option without the rest
        } catch (CommandLine.ParameterException e) {
            boolean placeholder = e.getMessage().matches("(?s)Invalid value for option '[^']+': '[A-Z]+' .*");
            return placeholder ? null : e.getMessage(); // `--samples N`: a value to fill in
        }
    }

    private String linkProblem(Path page, String text, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!linked.startsWith(root)) {
            return "outside the repository";
        }
        if (!file.isEmpty() && !Files.exists(linked)) {
            return "no such file";
        }
        if (anchor == null || !linked.toString().endsWith(".md")) {
            return null;
        }
        String linkedText = linked.equals(page) ? text : read(linked);
        return Markdown.anchors(linkedText).contains(anchor) ? null : "no heading makes the anchor #" + anchor;
    }

    private void versionProblems(String where, String text, Pattern pattern, List<String> problems) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            if (!m.group(2).equals(version)) {
                int line = text.substring(0, m.start()).split("\n", -1).length;
                problems.add(where + ":" + line + ": io.zkgroups:" + m.group(1) + " at version " + m.group(2)
                        + ", the build makes " + version);
            }
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
