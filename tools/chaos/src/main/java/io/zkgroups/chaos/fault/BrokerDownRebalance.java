package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.chaos.cluster.HealthGate;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.time.Duration;
import java.util.Random;

import static org.awaitility.Awaitility.await;

/**
 * The broker cannot be reached while the group rebalances: a member is restarted (SIGTERM, then a new process in its
 * slot) after the broker went down, and the group must converge (health) before it comes back. 0.8.2.2 rebalances
 * through ZooKeeper alone, and a zkgroups member must not make it wait on Kafka (docs/kafka-outage.md).
 * <ul>
 *   <li>{@link Kind#STOPPED}: SIGKILL of the broker; its registration stays in {@code /brokers/ids} until its ZooKeeper
 *       session expires, so the members see a registered broker they cannot reach. It starts again with its data
 *       once that registration is gone.</li>
 *   <li>{@link Kind#UNRESPONSIVE}: every zkgroups member's link to the broker (its proxy) becomes a black hole:
 *       connections accepted, nothing answered. 0.8.2.2 members reach the broker without a proxy.</li>
 * </ul>
 */
final class BrokerDownRebalance implements Fault {

    enum Kind { STOPPED, UNRESPONSIVE }

    /** Far beyond a rebalance through ZooKeeper (a JVM start included), far below a wait on Kafka's own timeouts. */
    private static final Duration CONVERGE = Duration.ofSeconds(45);
    /** The broker's zookeeper.session.timeout.ms (KafkaBrokerMain) and then some. */
    private static final Duration REGISTRATION_GONE = Duration.ofSeconds(40);

    private final Kind kind;

    BrokerDownRebalance(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return kind == Kind.STOPPED ? "broker-stopped-rebalance" : "broker-unresponsive-rebalance";
    }

    @Override
    public String description() {
        return (kind == Kind.STOPPED
                ? "SIGKILL the broker (still registered until its session expires)"
                : "black-hole every zkgroups member's link to the broker (accepted, never answered)")
                + ", then SIGTERM and restart a member: the group must be healthy within " + CONVERGE.toSeconds()
                + " s with the broker still down; then the broker comes back";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slot = Faults.slot(cluster, random);
        MemberProcess leaving = Faults.running(cluster, slot);
        down(cluster);
        try {
            cluster.journal().log("TERM", leaving.name());
            int exit = leaving.jvm().terminate(Duration.ofSeconds(90));
            MemberProcess next = cluster.startMember(slot);
            HealthGate.Result health = cluster.health().await(cluster.settings().groupSize(), CONVERGE,
                    Duration.ZERO);
            if (!health.healthy()) {
                throw new ChaosException("with the broker " + kind.name().toLowerCase() + ", the group did not become "
                        + "healthy within " + CONVERGE.toSeconds() + " s after " + leaving.name() + " left (exit "
                        + exit + ") and " + next.name() + " joined: " + health.output());
            }
            return "broker " + kind.name().toLowerCase() + ": " + leaving.name() + " left (exit " + exit + "), "
                    + next.name() + " joined, healthy " + health.millis() + " ms later with the broker still down";
        } finally {
            up(cluster);
        }
    }

    private void down(ChaosCluster cluster) {
        if (kind == Kind.STOPPED) {
            cluster.journal().log("KILL", "kafka");
            cluster.broker().kill();
        } else {
            cluster.journal().log("BLACKHOLE", "kafka links of every member");
            cluster.slots().forEach(s -> s.kafkaProxy().blackhole());
        }
    }

    private void up(ChaosCluster cluster) {
        if (kind == Kind.STOPPED) {
            // a new broker cannot register while the killed one's ephemeral registration stands
            await("the killed broker's registration expired").atMost(REGISTRATION_GONE)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> cluster.curator().getChildren().forPath("/brokers/ids").isEmpty());
            cluster.journal().log("START", "kafka");
            cluster.broker().startAgain();
        } else {
            cluster.slots().forEach(s -> s.kafkaProxy().heal());
            cluster.journal().log("HEAL", "kafka links of every member");
        }
    }
}
