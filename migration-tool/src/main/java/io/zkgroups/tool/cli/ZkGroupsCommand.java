package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code zkgroups}: the root command; its subcommands do the work. */
@Command(name = "zkgroups", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Operate Kafka 0.8-style ZooKeeper consumer groups: describe, reset, export/import, delete, "
                + "health for rolling bounces, lag and a Prometheus exporter, and ZooKeeper <-> Kafka offset migration.",
        modelTransformer = ZkGroupsCommand.ExitCodeHelp.class,
        subcommands = {GroupsCommand.class, OffsetsCommand.class, MigrateCommand.class, HealthCommand.class, LagCommand.class,
                ExporterCommand.class, ConsumeCommand.class, HistoryCommand.class, UiCommand.class})
public final class ZkGroupsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }

    /** Ends the help with the list of {@link ExitCode}s, so that the help and the codes cannot disagree. */
    static final class ExitCodeHelp implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            Map<String, String> codes = new LinkedHashMap<>();
            for (ExitCode code : ExitCode.values()) {
                codes.put(Integer.toString(code.code()), code.meaning());
            }
            spec.usageMessage().exitCodeListHeading("%nExit codes (docs/cli.md):%n").exitCodeList(codes);
            return spec;
        }
    }
}
