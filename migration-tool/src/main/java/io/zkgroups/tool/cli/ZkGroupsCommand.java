package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code zkgroups}: the root command; its subcommands do the work. */
@Command(name = "zkgroups", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Operate Kafka 0.8-style ZooKeeper consumer groups: describe, reset, export/import, delete, "
                + "health for rolling bounces, lag and a Prometheus exporter, and ZooKeeper <-> Kafka offset migration.",
        footer = {"", "Exit codes: see docs/cli.md (0 ok, 2 usage, 3 not found, 4 group active, 5 unreachable, "
                + "6 bad file, 7 unreadable znode, 8 divergence, 9 rewind skipped, 10 Kafka refused, 11 Kafka unreachable: "
                + "ZooKeeper half only, 12 undecodable record (consume), 20-27 unhealthy)."},
        subcommands = {GroupsCommand.class, OffsetsCommand.class, MigrateCommand.class, HealthCommand.class, LagCommand.class,
                ExporterCommand.class, ConsumeCommand.class})
public final class ZkGroupsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }
}
