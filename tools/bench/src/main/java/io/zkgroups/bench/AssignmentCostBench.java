package io.zkgroups.bench;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU cost of what every member computes in every rebalance attempt: the whole group's assignment and its own rows
 * ({@code assignTo(snapshot, me)}: its own share), for N members with one stream each on one topic of P partitions.
 * Run it in the JIT mode you want to know about (see {@code tools/bench/assignment-cost.sh}): interpreted ({@code -Xint}),
 * which is where a member's rarely-run rebalance code spends its first rebalances, or C1.
 *
 * <pre>AssignmentCostBench [--members 10] [--partitions 100] [--strategy range] [--rounds 10] [--calls 50]</pre>
 * Prints microseconds per call for each round; the last rounds are the steady state of the chosen mode.
 */
public final class AssignmentCostBench {

    private AssignmentCostBench() {
    }

    @Command(name = "AssignmentCostBench", mixinStandardHelpOptions = true, sortOptions = false,
            description = "CPU cost of one member's assignTo(snapshot, me), in this JVM's JIT mode.")
    static final class Options {
        @Option(names = "--members", description = "Members of the group, one stream each (default: ${DEFAULT-VALUE}).")
        int members = 10;

        @Option(names = "--partitions", description = "Partitions of the one topic (default: ${DEFAULT-VALUE}).")
        int partitions = 100;

        @Option(names = "--strategy", converter = BenchOptionTypes.StrategyConverter.class,
                description = "range, roundrobin or sticky (default: ${DEFAULT-VALUE}).")
        String strategy = PartitionAssignor.RANGE;

        @Option(names = "--rounds", description = "Rounds, each timed and printed (default: ${DEFAULT-VALUE}).")
        int rounds = 10;

        @Option(names = "--calls", description = "Calls per round (default: ${DEFAULT-VALUE}).")
        int calls = 50;
    }

    public static void main(String[] args) {
        Options options = BenchCommand.parse(new Options(), args);
        int members = options.members;
        int partitions = options.partitions;
        String strategy = options.strategy;
        int rounds = options.rounds;
        int calls = options.calls;
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        for (int i = 0; i < members; i++) {
            subscriptions.put(ConsumerId.ofOverride("g", "m" + (i + 10)), Map.of("t", 1));
        }
        // every member advertises sticky, or the sticky strategy would compute range (as in a mixed group)
        GroupSnapshot snapshot = new GroupSnapshot(subscriptions, Map.of("t", partitions), subscriptions.keySet());
        PartitionAssignor assignor = PartitionAssignor.forStrategy(strategy);
        ConsumerId me = ConsumerId.ofOverride("g", "m" + (10 + members / 2));
        int rows = 0;
        System.out.printf(Locale.ROOT, "assignment cost: %d members x %d partitions, %s, JVM flags %s%n", members, partitions,
                strategy, java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        for (int round = 1; round <= rounds; round++) {
            long start = System.nanoTime();
            for (int call = 0; call < calls; call++) {
                rows += assignor.assignTo(snapshot, me).size();
            }
            System.out.printf(Locale.ROOT, "  round %d: %.1f us per assignTo (one member's share)%n", round,
                    (System.nanoTime() - start) / 1e3 / calls);
        }
        System.out.println("(rows computed: " + rows + ")"); // keeps the work observable
    }
}
