package io.zkgroups.tool.docs;

import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.cli.ZkGroupsCommand;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The command line's reference, written from its picocli model and from {@link ExitCode}, as Kafka writes its config
 * tables from {@code ConfigDef}: docs/cli-reference.md whole, and the exit-code table of docs/cli.md.
 */
final class CliReference {

    private CliReference() {
    }

    /** docs/cli-reference.md: the options of every command, then every command with its synopsis, description and options. */
    static String commands() {
        CommandLine root = new CommandLine(new ZkGroupsCommand());
        root.setInterpolateVariables(false); // ${env:...} defaults stay names, not this machine's values
        List<CommandLine> commands = leaves(root);
        Set<String> common = commonOptions(commands);
        StringBuilder out = new StringBuilder();
        out.append("# `zkgroups` command reference\n\n")
                .append("<!-- Generated from the command line's definition by CliReference (migration-tool tests); do not\n")
                .append("     edit: GeneratedDocsTest fails when this file differs from what the code generates. -->\n\n")
                .append("Every command and option of `zkgroups` as the build defines them. [cli.md](cli.md) explains the\n")
                .append("conventions (output, durations, offsets, exit codes) and each command at length.\n\n")
                .append("## `zkgroups`\n\n```\nzkgroups (--help | --version | COMMAND ...)\n```\n\n");
        appendTable(out, root.getCommandSpec().options(), List.of());
        out.append("\nCommands: ").append(String.join(", ", commands.stream()
                .map(c -> "`" + c.getCommandSpec().qualifiedName(" ").substring("zkgroups ".length()) + "`").toList()))
                .append(".\n\n## Options of every command\n\n");
        appendTable(out, commands.get(0).getCommandSpec().options().stream()
                .filter(o -> common.contains(o.longestName())).toList(), List.of());
        for (CommandLine command : commands) {
            appendCommand(out, command.getCommandSpec(), common);
        }
        return out.toString();
    }

    /** The exit-code table of docs/cli.md. */
    static String exitCodes() {
        StringBuilder out = new StringBuilder("| code | name | meaning |\n|---|---|---|\n");
        for (ExitCode code : ExitCode.values()) {
            out.append("| ").append(code.code()).append(" | `").append(code.name()).append("` | ")
                    .append(cell(code.meaning())).append(" |\n");
        }
        return out.toString();
    }

    private static List<CommandLine> leaves(CommandLine command) {
        List<CommandLine> leaves = new ArrayList<>();
        if (command.getSubcommands().isEmpty()) {
            leaves.add(command);
        }
        for (CommandLine sub : command.getSubcommands().values()) {
            leaves.addAll(leaves(sub));
        }
        return leaves;
    }

    /** The options every command has (the connection and output options). */
    private static Set<String> commonOptions(List<CommandLine> commands) {
        Set<String> common = new LinkedHashSet<>();
        commands.get(0).getCommandSpec().options().forEach(o -> common.add(o.longestName()));
        for (CommandLine command : commands) {
            common.retainAll(command.getCommandSpec().options().stream().map(OptionSpec::longestName).toList());
        }
        return common;
    }

    private static void appendCommand(StringBuilder out, CommandSpec spec, Set<String> common) {
        List<OptionSpec> own = spec.options().stream().filter(o -> !o.hidden() && !common.contains(o.longestName())).toList();
        List<PositionalParamSpec> params = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        out.append("\n## `").append(spec.qualifiedName()).append("`\n\n");
        out.append("```\n").append(synopsis(spec, own, params)).append("\n```\n\n");
        for (String paragraph : spec.usageMessage().description()) {
            out.append(text(paragraph, null)).append("\n\n");
        }
        appendTable(out, own, params);
    }

    /** The command, its own options (groups of alternatives together, as picocli parses them), then the common ones. */
    private static String synopsis(CommandSpec spec, List<OptionSpec> own, List<PositionalParamSpec> params) {
        List<String> parts = new ArrayList<>(List.of(spec.qualifiedName()));
        Set<ArgGroupSpec> groupsDone = new LinkedHashSet<>();
        for (OptionSpec option : own) {
            ArgGroupSpec group = option.group();
            if (group == null) {
                String word = usage(option);
                parts.add(option.required() ? word : "[" + word + "]");
            } else if (groupsDone.add(group)) {
                String members = String.join(group.exclusive() ? " | " : " ", group.options().stream()
                        .filter(o -> !o.hidden()).map(CliReference::usage).toList());
                parts.add(group.multiplicity().min() == 0 ? "[" + members + "]" : "(" + members + ")");
            }
        }
        params.forEach(p -> parts.add(p.paramLabel() + (p.isMultiValue() ? "..." : "")));
        parts.add("[common options]");
        return String.join(" ", parts);
    }

    private static String usage(OptionSpec option) {
        String word = resolved(option.longestName()) + (option.typeInfo().isBoolean() ? "" : " " + option.paramLabel());
        return option.isMultiValue() ? word + "..." : word;
    }

    private static void appendTable(StringBuilder out, List<OptionSpec> options, List<PositionalParamSpec> params) {
        List<String> rows = new ArrayList<>();
        params.forEach(p -> rows.add(row("`" + p.paramLabel() + "`", p)));
        for (OptionSpec option : options) {
            String label = option.typeInfo().isBoolean() ? "" : " " + option.paramLabel();
            rows.add(row("`" + String.join(", ", List.of(option.names()).stream().map(CliReference::resolved).toList())
                    + label + "`", option));
        }
        if (!rows.isEmpty()) {
            out.append("| option | meaning | default |\n|---|---|---|\n");
            rows.forEach(r -> out.append(r).append('\n'));
        }
    }

    private static String row(String name, ArgSpec arg) {
        String meaning = String.join(" ", List.of(arg.description()).stream().map(d -> text(d, arg)).toList());
        if (arg.required() && arg.group() == null) {
            meaning = "Required. " + meaning;
        }
        String defaultValue = arg.defaultValue() == null ? "" : "`" + defaultValue(arg) + "`";
        return "| " + cell(name) + " | " + cell(meaning) + " | " + cell(defaultValue) + " |";
    }

    /** A description or default with picocli's variables written as a reader of the docs needs them. */
    private static String text(String raw, ArgSpec arg) {
        String text = withEnvNames(raw);
        if (arg != null) {
            text = text.replace("${DEFAULT-VALUE}", arg.defaultValue() == null ? "none" : defaultValue(arg));
            if (arg.completionCandidates() != null) {
                text = text.replace("${COMPLETION-CANDIDATES}", StreamSupport
                        .stream(arg.completionCandidates().spliterator(), false).collect(Collectors.joining(", ")));
            }
        }
        return text;
    }

    private static String defaultValue(ArgSpec arg) {
        return withEnvNames(arg.defaultValue());
    }

    /** A name picocli writes as a variable with its default, {@code ${picocli.help.name.0:--h}}: the default. */
    private static String resolved(String name) {
        return name.replaceAll("^\\$\\{[^:}]+:-(.*)\\}$", "$1");
    }

    /** {@code ${env:NAME}} as {@code $NAME}. */
    private static String withEnvNames(String text) {
        return text.replaceAll("\\$\\{env:([A-Z_]+)\\}", "\\$$1");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
