package io.zkgroups.chaos.monitor;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;

/**
 * Everything a run recorded, as plain values: what the invariant monitor checks. Times are
 * {@code System.nanoTime()} of the host (CLOCK_MONOTONIC: one clock for every process); ZooKeeper's transaction
 * times were mapped onto it with the journal's CLOCK lines.
 *
 * @param acks        every record the producer had acknowledged
 * @param deliveries  every record a member handed to its application
 * @param events      every other line of the member logs, per process, in order
 * @param processEnds how each member process ended (absent: it still ran when the logs were read)
 * @param owners      owner znode changes of the group's partitions, in zxid order (empty if unknown)
 * @param offsets     writes of the group's offset znodes, in zxid order (empty if unknown)
 * @param zkHistoryKnown whether {@code owners}/{@code offsets} come from ZooKeeper's transaction logs
 * @param unhealthy   faults after which the group did not become healthy within the bound (fault index -> ms)
 * @param legacyProcesses real 0.8.2.2 consumers: their hand-out times are when the orchestrator read them, and
 *                    their tenures and commits come from ZooKeeper's history
 * @param kafkaCommits the group's commits in {@code __consumer_offsets}, in log order (null: not read)
 * @param faults      when each fault began (nanos -> "#index name"), to say which fault a stall came with
 * @param brokerDown  when the broker was down on purpose: {@code restart-broker} from its SIGTERM,
 *                    {@code broker-stopped-rebalance} from its SIGKILL, {@code broker-unresponsive-rebalance} from the
 *                    black hole on the members' links, each until the end of the fault (the broker back)
 * @param groupFormed when the group was first healthy (the members start one after another while the producer runs);
 *                    {@code Long.MIN_VALUE} if unknown
 * @param consumerIds per zkgroups process, the consumer id its owner znodes name (the processes of a slot that restarts
 *                    by session hand-over share one); a process not in it is named by its own name
 * @param notResumed  faults after which the group was healthy but did not commit past what had been acknowledged
 *                    within the run's wait (fault index -> ms waited)
 * @param unchecked   why a check could not run: a missing or unreadable log, a malformed line (file and line), a
 *                    failed read of {@code __consumer_offsets}; each fails the run
 */
public record History(List<Ack> acks, List<Delivery> deliveries, Map<String, List<MemberEvent>> events,
                      Map<String, ProcessEnd> processEnds, List<OwnerChange> owners, List<OffsetWrite> offsets,
                      boolean zkHistoryKnown, Map<Integer, Long> unhealthy, Set<String> legacyProcesses,
                      List<KafkaCommit> kafkaCommits, NavigableMap<Long, String> faults, List<Span> brokerDown,
                      long groupFormed, Map<String, String> consumerIds, Map<Integer, Long> notResumed,
                      List<String> unchecked) {

    /** The consumer id {@code process}'s owner znodes name. */
    public String consumerId(String process) {
        return consumerIds.getOrDefault(process, process);
    }

    /** A span of time, both ends included. */
    public record Span(long from, long until) {
    }

    /** The fault in progress (or last begun) at {@code nanos}, e.g. "#12 kill-member"; "before the first fault" if none. */
    public String faultAt(long nanos) {
        Map.Entry<Long, String> f = faults.floorEntry(nanos);
        return f == null ? "before the first fault" : f.getValue();
    }

    /**
     * One commit of the group in {@code __consumer_offsets} ({@code offset} -1: the commit was deleted), at the broker's
     * time mapped onto nanoTime; {@code logOffset}: its place in the topic, the order the coordinator accepted it.
     */
    public record KafkaCommit(long nanos, long logOffset, int partition, long offset) {
    }

    /** A record the producer got an acknowledgement for. */
    public record Ack(int partition, long offset, long nanos) {
    }

    /** A record handed to the application by a member process. */
    public record Delivery(String process, int partition, long offset, long nanos) {
    }

    /** A member log line other than a record: {@code kind} as in the log ({@code ASSIGNED}, {@code COMMIT}, ...). */
    public record MemberEvent(long nanos, String kind, Set<Integer> partitions, Map<Integer, Long> offsets,
                              String detail) {
    }

    /** How a process ended: {@code KILLED} (SIGKILL), {@code CLOSED} (left gracefully) or {@code VANISHED}. */
    public record ProcessEnd(long nanos, String how) {
        public boolean clean() {
            return how.equals("CLOSED");
        }
    }

    /**
     * The owner znode of {@code partition} became {@code owner} (the process named by the thread id, e.g.
     * {@code m0-1} for {@code g_m0-1-0}; null: deleted; {@code "?"}: unreadable bytes), by ZooKeeper session
     * {@code session}: {@code CREATE}, {@code SET}, {@code DELETE}, or {@code SESSION_END} (its creator's session
     * ended, e.g. expired).
     */
    public record OwnerChange(long nanos, long zxid, int partition, String owner, long session, Cause cause) {

        public enum Cause { CREATE, SET, DELETE, SESSION_END }
    }

    /**
     * The offset znode of {@code partition} was written with {@code value} (null: not a number) by ZooKeeper
     * session {@code session}; {@code injected}: by the run's own poisoning session, not a commit.
     */
    public record OffsetWrite(long nanos, long zxid, int partition, Long value, long session, boolean injected) {
    }
}
