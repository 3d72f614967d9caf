package io.zkgroups.tool.migrate;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.cutover.KafkaGroupMode;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.GroupReader;
import io.zkgroups.tool.group.GroupState;
import io.zkgroups.tool.group.GroupView;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import io.zkgroups.tool.group.StrategyChoice;
import io.zkgroups.tool.health.GroupAssessment;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.OffsetsTopicPartition;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code zkgroups migrate coordination}: checks whether a group may move to the other coordinator, and records the
 * decision its members follow (docs/cutover.md). Nothing is written unless every check passes.
 */
public final class CoordinationCutover {

    /** The capability a member that can cross advertises in its registration. */
    static final String CAPABILITY = "cutover";

    /** One guard rail and what it found. */
    public record Check(String name, boolean ok, String detail) {
    }

    /** What was checked, and whether the decision was (or would be) recorded. */
    public record Plan(String group, String from, String to, List<Check> checks, boolean allowed, boolean executed) {
        /** Whether the group already follows {@code to}: nothing to do. */
        public boolean alreadyThere() {
            return from.equals(to);
        }
    }

    private final Clients clients;

    public CoordinationCutover(Clients clients) {
        this.clients = clients;
    }

    /** Checks, and with {@code execute} records the decision when every check passes. */
    public Plan run(String group, Coordinator to, boolean execute) {
        if (!clients.zk().exists(group)) {
            throw new CliException(ExitCode.NOT_FOUND, "group " + group + " does not exist in ZooKeeper ("
                    + clients.zk().paths().group(group) + ")");
        }
        Coordinator from = clients.zk().registry().coordination().decision(group)
                .map(CoordinationDecision::coordinator).orElse(Coordinator.ZOOKEEPER);
        List<Check> checks = from == to ? List.of() : to == Coordinator.KAFKA ? toKafka(group) : toZooKeeper(group);
        boolean allowed = checks.stream().allMatch(Check::ok);
        boolean executed = false;
        if (execute && allowed && from != to) {
            clients.zk().registry().coordination().decide(group,
                    new CoordinationDecision(to, System.currentTimeMillis()));
            clients.auditCoordination(group, from.label(), to.label());
            executed = true;
        }
        return new Plan(group, from.label(), to.label(), checks, allowed, executed);
    }

    private List<Check> toKafka(String group) {
        List<Check> checks = new ArrayList<>();
        GroupView view = new GroupReader(clients, Duration.ofMinutes(5), Clock.systemUTC()).read(group, null, true);
        checks.add(members(view.members()));
        checks.add(offsets(view.phase()));
        checks.add(stable(view));
        checks.add(kafkaGroupFree(group));
        checks.add(kafkaWritable(group));
        return checks;
    }

    /** Every registered member advertises that it can cross; a registration that cannot be read fails it too. */
    static Check members(Listing<Member> members) {
        List<String> cannot = new ArrayList<>();
        for (Member m : members.entries()) {
            if (!"1".equals(m.registration().capabilities().get(CAPABILITY))) {
                cannot.add(m.id().value() + (m.registration().capabilities().isEmpty()
                        ? " (a 0.8.2.2 or kafka-node consumer, or a zkgroups member without "
                        + "zkgroups.advertise.capabilities=true)" : " (a zkgroups version that cannot cross)"));
            }
        }
        members.unreadable().forEach(u -> cannot.add(u.path() + " (registration unreadable: " + u.reason() + ")"));
        if (!cannot.isEmpty()) {
            return new Check("members", false, "members that cannot cross are registered: " + String.join(", ", cannot)
                    + "; stop them or replace them by zkgroups members with zkgroups.advertise.capabilities=true");
        }
        return new Check("members", true, members.entries().size() + " registered, each advertises \""
                + CAPABILITY + "\":\"1\"");
    }

    /** The group's offsets are kept in Kafka (dual commit or Kafka only), or there are none yet. */
    static Check offsets(PhaseInference.Result inferred) {
        MigrationPhase phase = inferred.phase();
        boolean ok = phase == MigrationPhase.DUAL_COMMIT || phase == MigrationPhase.KAFKA_ONLY
                || phase == MigrationPhase.NONE;
        String detail = "phase " + phase.label() + " (" + inferred.evidence() + ")";
        return new Check("offsets", ok, ok ? detail : detail + "; move the offsets to Kafka first "
                + "(docs/migration-runbook.md: offsets.storage=kafka with dual commit)");
    }

    private static Check stable(GroupView view) {
        StrategyChoice choice = StrategyChoice.choose(null, view.members().entries());
        GroupState state = GroupAssessment.state(view, PartitionAssignor.forStrategy(choice.strategy()));
        boolean ok = state != GroupState.REBALANCING;
        return new Check("state", ok, "group " + state.label() + (ok ? "" : ": wait until `zkgroups health` passes"));
    }

    /** Kafka answers, and no consumer already uses the group id through Kafka's own protocol. */
    private Check kafkaGroupFree(String group) {
        Optional<ConsumerGroupDescription> described;
        try {
            described = describe(group);
        } catch (CliException e) {
            return new Check("kafka", false, "Kafka cannot be asked about the group: " + e.getMessage());
        }
        if (described.isPresent() && !described.get().members().isEmpty()) {
            return new Check("kafka", false, "Kafka's group " + group + " has members already: "
                    + clientIds(described.get().members()) + " (consumers of Kafka's protocol with the same group.id)");
        }
        return new Check("kafka", true, "Kafka's group " + group + " has no member ("
                + described.map(d -> "state " + d.state()).orElse("unknown to Kafka") + ")");
    }

    /**
     * Kafka can store the group's commits now: once on Kafka's coordinator, members commit there only, and every
     * hand-over starts from those commits.
     */
    private Check kafkaWritable(String group) {
        Optional<OffsetsTopicPartition> partition;
        try {
            partition = clients.requireKafka("to check Kafka's side of group " + group).offsetsTopicPartition(group);
        } catch (CliException e) {
            return new Check("kafka-writable", false, "Kafka cannot be asked where it stores the group's commits: "
                    + e.getMessage());
        }
        return writable(partition);
    }

    static Check writable(Optional<OffsetsTopicPartition> partition) {
        if (partition.isEmpty()) {
            return new Check("kafka-writable", false, OffsetsTopicPartition.TOPIC + " does not exist yet (Kafka creates it "
                    + "when a group first looks for its coordinator, as this check just did); run the command again");
        }
        OffsetsTopicPartition p = partition.get();
        return new Check("kafka-writable", p.writable(), p.describe() + (p.writable() ? ""
                : ": Kafka cannot store the group's commits now; repair the partition first"));
    }

    private List<Check> toZooKeeper(String group) {
        Optional<ConsumerGroupDescription> described;
        try {
            described = describe(group);
        } catch (CliException e) {
            return List.of(new Check("kafka", false, "Kafka cannot be asked about the group: " + e.getMessage()));
        }
        List<String> others = new ArrayList<>();
        int ours = 0;
        for (MemberDescription m : described.map(ConsumerGroupDescription::members).orElse(List.of())) {
            if (m.clientId().endsWith(KafkaGroupMode.CLIENT_ID_SUFFIX)) {
                ours++;
            } else {
                others.add(m.consumerId() + " (client.id " + m.clientId() + ", host " + m.host() + ")");
            }
        }
        if (!others.isEmpty()) {
            return List.of(new Check("kafka-members", false, "Kafka's group has members that are not zkgroups "
                    + "members and cannot go back to ZooKeeper: " + String.join(", ", others)));
        }
        return List.of(new Check("kafka-members", true, ours + " members in Kafka's group, all zkgroups members"));
    }

    private Optional<ConsumerGroupDescription> describe(String group) {
        KafkaGroups kafka = clients.requireKafka("to check Kafka's side of group " + group);
        return kafka.describeGroup(group);
    }

    private static String clientIds(java.util.Collection<MemberDescription> members) {
        List<String> ids = new ArrayList<>();
        members.forEach(m -> ids.add(m.clientId() + "@" + m.host()));
        return String.join(", ", ids);
    }
}
