package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.MemberAlarmsCodec;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.registry.store.Unreadable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Puts back the ZooKeeper offset of a partition this consumer owns when someone else writes it lower than the
 * consumer's own last commit — a 0.8.2.2 member's late auto-commit after its session ended, an operator's write
 * outside the tools — so that the partition's next owner does not deliver the range again.
 * <p>
 * How: a data watch on the offset znode of every partition the consumer fetches ({@link #check} arms it for new
 * partitions and drops it for released ones), re-armed at each change by the read that learns the new value (an exists
 * watch while the znode is missing). The value found when the watch is first set counts only if the consumer had
 * committed the partition itself by then: before that it may lag the offset the consumer started from without anyone
 * rewinding it (with dual commit a consumer starts from the higher of ZooKeeper's and Kafka's offsets). A change of
 * an owned offset znode, the consumer's own commits included, is read (one asynchronous {@code getData}, off the poll
 * thread, which arms the watch again) at the next {@link #FOLLOW_INTERVAL}: the changes within one interval cost one
 * read, so a consumer committing at the uncommitted cap many times a second does not read its every commit back.
 * Nothing is lost by it: what counts is the value stored, and the read finds the latest. Nothing is read while
 * offsets stay put.
 * <p>
 * {@link #check}, on the poll thread, compares the values seen with the consumer's last commit. A lower one is read
 * once more, in the background, after that commit (the first read may have been answered before it: a consumer
 * committing at the cap commits every few milliseconds, so most reads are); if the second read is lower than that
 * commit too, it is a rewind: the consumer's offset is written back through its fenced commit (so only while it still owns the
 * partition), counted ({@code rewind-restored-total}) and reported in the member's health under source
 * {@value #SOURCE} until the partition leaves the consumer or for {@link #ALARM_HOLD}, whichever ends first
 * ({@code zkgroups health} prints it as a notice: the offset is whole again, so it does not hold up a bounce). ZooKeeper records no writer of a znode, so
 * the alarm says what is known: the value, when it was written, and the other members registered at that moment.
 * <p>
 * Writes that move forward are left alone; the tools that write lower offsets ({@code offsets reset},
 * {@code offsets import}, {@code migrate --allow-rewind}) refuse while the group has members, so they never meet an
 * owner.
 * <p>
 * <b>Threading.</b> Curator's event thread only records the values it reads (concurrent maps); everything else runs on
 * the thread inside the consumer.
 */
final class RewindGuard implements AutoCloseable {

    /** The health source of its alarms. */
    static final String SOURCE = "rewind";
    /** How often the watched partitions are brought in line with the fetched ones and changed offsets read again. */
    static final Duration FOLLOW_INTERVAL = Duration.ofMillis(100);
    /** How long an alarm stays in the member's health after the last rewind of its partition, at most. */
    static final Duration ALARM_HOLD = Duration.ofMinutes(5);

    private final Logger log;
    private final boolean enabled;
    private final WatcherRemoveCuratorFramework client;
    private final OffsetRegistry offsets;
    private final ZkLayout layout;
    private final String group;
    private final String memberName;
    private final SubscriptionState state;
    private final OffsetCommitter committer;
    private final ConsumerMetrics metrics;
    private final Supplier<ZkGroupMember> member;
    private final Time time;
    /** Offset path → partition, of the partitions watched: written by the poll thread, read by Curator's. */
    private final Map<String, TopicPartition> watched = new ConcurrentHashMap<>();
    /** The latest value read of each watched offset znode, with its mtime: Curator's thread puts, the poll thread takes. */
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    /** Alarms raised, by offset path (poll thread). */
    private final Map<String, Alarm> alarms = new TreeMap<>();
    private final Watcher watcher = this::changed;
    /** Whether the consumer had committed the partition itself when its watch was set, by offset path. */
    private final Map<String, Boolean> committedWhenArmed = new ConcurrentHashMap<>();
    /** Offset paths whose watch is set (their first read came back): Curator's thread adds, the poll thread drops. */
    private final Set<String> armed = ConcurrentHashMap.newKeySet();
    /** Offset paths whose watch fired since their last read: Curator's thread adds, the poll thread reads them. */
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    /** Offset paths read again because a lower value was seen, until the answer is taken (poll thread adds). */
    private final Set<String> confirming = ConcurrentHashMap.newKeySet();
    /** The answers of those reads, with the commit each was compared with: Curator's thread puts, the poll thread takes. */
    private final Map<String, Confirmation> confirmed = new ConcurrentHashMap<>();
    /** When {@link #check} next looks at which partitions are fetched and reads the changed ones (poll thread). */
    private long nextFollowNanos;

    private static final class Seen {
        final long offset;
        final long mtime;

        Seen(long offset, long mtime) {
            this.offset = offset;
            this.mtime = mtime;
        }
    }

    /** A value read again after the consumer's commit {@code ours}: lower than it, it is a rewind. */
    private static final class Confirmation {
        final Seen stored;
        final long ours;

        Confirmation(Seen stored, long ours) {
            this.stored = stored;
            this.ours = ours;
        }
    }

    private static final class Alarm {
        final Unreadable unreadable;
        final long raisedNanos;

        Alarm(Unreadable unreadable, long raisedNanos) {
            this.unreadable = unreadable;
            this.raisedNanos = raisedNanos;
        }
    }

    /**
     * @param enabled whether to guard at all ({@code zkgroups.offsets.rewind.guard}, and the offsets are in ZooKeeper)
     * @param member  the member while subscribed, else null (where the alarms go)
     */
    RewindGuard(boolean enabled, CuratorFramework client, OffsetRegistry offsets, String group, String memberName,
                SubscriptionState state, OffsetCommitter committer, ConsumerMetrics metrics,
                Supplier<ZkGroupMember> member, Time time) {
        this.log = new LogContext("[" + memberName + "] ").logger(RewindGuard.class);
        this.enabled = enabled;
        this.client = client.newWatcherRemoveCuratorFramework();
        this.offsets = offsets;
        this.layout = offsets.layout();
        this.group = group;
        this.memberName = memberName;
        this.state = state;
        this.committer = committer;
        this.metrics = metrics;
        this.member = member;
        this.time = time;
    }

    /**
     * Watches the fetched partitions (and drops the released ones), writes back the rewinds seen since the last call
     * and ends alarms past {@link #ALARM_HOLD}. A write back that fails (the partition is no longer owned, ZooKeeper
     * fails) is logged; the next change of the znode is looked at again.
     */
    void check() {
        if (!enabled) {
            return;
        }
        long now = time.nanoseconds();
        boolean alarmsChanged = false;
        if (now - nextFollowNanos >= 0) {
            nextFollowNanos = now + FOLLOW_INTERVAL.toNanos();
            alarmsChanged = follow(state.fetched());
            readChanged();
            alarmsChanged |= alarms.values().removeIf(a -> now - a.raisedNanos - ALARM_HOLD.toNanos() >= 0);
        }
        for (String path : new ArrayList<>(seen.keySet())) {
            Seen value = seen.remove(path);
            TopicPartition tp = watched.get(path);
            Long ours = tp == null ? null : state.committed(tp);
            if (value != null && ours != null && value.offset < ours) {
                confirm(path, ours); // the read may have been answered before this consumer's own last commit
            }
        }
        for (String path : new ArrayList<>(confirmed.keySet())) {
            Confirmation read = confirmed.remove(path);
            confirming.remove(path);
            TopicPartition tp = watched.get(path);
            Long ours = tp == null ? null : state.committed(tp);
            // lower than the commit it was read after, and than the consumer's commit now (the application may have
            // sought back and committed lower meanwhile: its own choice, not a rewind)
            if (ours != null && read.stored.offset < Math.min(read.ours, ours)) {
                alarmsChanged |= restore(path, tp, read.stored, ours);
            }
        }
        if (alarmsChanged) {
            publish();
        }
    }

    /**
     * Reads {@code path} again, in the background: sent now, it is answered after the consumer's commit {@code ours}
     * (one session's requests are answered in order), so a value lower than that is not an earlier commit of its own.
     * One such read per znode at a time; the answer is taken by a later {@link #check}.
     */
    private void confirm(String path, long ours) {
        if (!confirming.add(path)) {
            return;
        }
        try {
            client.getData().inBackground((unused, event) -> {
                if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
                    confirming.remove(path); // gone or unreachable: the next change is looked at again
                    return;
                }
                try {
                    confirmed.put(path, new Confirmation(
                            new Seen(OffsetCodec.decode(event.getData()), event.getStat().getMtime()), ours));
                } catch (DecodeException e) {
                    confirming.remove(path);
                    log.debug("offset znode {} is unreadable: {}", path, e.getMessage()); // the offsets' alarm tells it
                }
            }).forPath(path);
        } catch (Exception e) {
            confirming.remove(path);
            log.debug("reading {} again failed: {}", path, e.getMessage());
        }
    }

    private boolean restore(String path, TopicPartition tp, Seen rewound, long ours) {
        String when = Instant.ofEpochMilli(rewound.mtime).toString();
        log.warn("the offset of {} was written back to {} by another writer at {} while {} owns it at {}; writing {} "
                + "again", tp, rewound.offset, when, memberName, ours, ours);
        offsets.forget(group); // the store's checkpoint holds our value, which is no longer what is stored
        try {
            committer.restore(tp, ours);
        } catch (KafkaException e) {
            log.warn("could not write back the offset {} of {}: {}", ours, tp, e.getMessage());
            return false;
        }
        metrics.rewindRestored();
        alarms.put(path, new Alarm(new Unreadable(path, MemberAlarmsCodec.RESTORED_REWIND + rewound.offset + " at " + when
                + " by another writer (" + writers() + ") while " + memberName + " owned it at " + ours
                + "; restored to " + ours), time.nanoseconds()));
        return true;
    }

    /** What can be said of who wrote: the other members registered now, or that there is none. */
    private String writers() {
        try {
            List<String> others = new ArrayList<>(client.getChildren().forPath(layout.memberIds(group)));
            others.remove(memberName);
            Collections.sort(others);
            return others.isEmpty() ? "unknown writer: no other member is registered, a process outside the group"
                    : "unknown writer; ZooKeeper does not record it: other members registered now: " + others
                    + " (a 0.8.2.2 member whose session ended writes its old position when it resumes)";
        } catch (Exception e) {
            return "unknown writer";
        }
    }

    private void publish() {
        ZkGroupMember current = member.get();
        if (current != null) {
            List<Unreadable> list = new ArrayList<>();
            alarms.values().forEach(a -> list.add(a.unreadable));
            current.reportUnreadable(SOURCE, list);
        }
    }

    /** Watches {@code fetched} and no other partition; returns whether alarms of released partitions ended. */
    private boolean follow(Set<TopicPartition> fetched) {
        Map<String, TopicPartition> now = new HashMap<>();
        for (TopicPartition tp : fetched) {
            now.put(layout.offset(group, KafkaPartitions.toRegistry(tp)), tp);
        }
        watched.keySet().removeIf(path -> !now.containsKey(path));
        armed.removeIf(path -> !now.containsKey(path));
        seen.keySet().removeIf(path -> !now.containsKey(path));
        confirmed.keySet().removeIf(path -> !now.containsKey(path));
        confirming.removeIf(path -> !now.containsKey(path));
        committedWhenArmed.keySet().removeIf(path -> !now.containsKey(path));
        now.forEach((path, tp) -> {
            if (watched.putIfAbsent(path, tp) == null) {
                committedWhenArmed.put(path, state.committedHere(tp));
                read(path);
            }
        });
        return alarms.keySet().removeIf(path -> !now.containsKey(path));
    }

    /** Reads {@code path} with a data watch; a missing znode gets an exists watch instead. */
    private void read(String path) {
        try {
            client.getData().usingWatcher(watcher).inBackground(this::readDone).forPath(path);
        } catch (Exception e) {
            log.debug("watching {} failed: {}", path, e.getMessage());
        }
    }

    private void readDone(CuratorFramework unused, CuratorEvent event) {
        String path = event.getPath();
        if (!watched.containsKey(path)) {
            return;
        }
        // the first read, set off before this consumer's first commit of the partition, may find a value lower than
        // the one it started from that was written before it owned the partition: stale, not a rewind (offsets copied
        // back to ZooKeeper while the group committed to Kafka only, then read with dual commit)
        boolean stale = armed.add(path) && !Boolean.TRUE.equals(committedWhenArmed.get(path));
        if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
            try {
                client.checkExists().usingWatcher(watcher).inBackground((c, e) -> {
                    if (e.getStat() != null) {
                        read(path);
                    }
                }).forPath(path);
            } catch (Exception e) {
                log.debug("watching {} failed: {}", path, e.getMessage());
            }
        } else if (event.getResultCode() == KeeperException.Code.OK.intValue() && !stale) {
            try {
                seen.put(path, new Seen(OffsetCodec.decode(event.getData()), event.getStat().getMtime()));
            } catch (DecodeException e) {
                log.debug("offset znode {} is unreadable: {}", path, e.getMessage()); // the offsets' alarm tells it
            }
        }
    }

    private void changed(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None && event.getPath() != null
                && watched.containsKey(event.getPath())) {
            changed.add(event.getPath());
        }
    }

    /** Reads (and watches again) the offset znodes that changed since their last read. */
    private void readChanged() {
        for (String path : new ArrayList<>(changed)) {
            changed.remove(path);
            if (watched.containsKey(path)) {
                read(path);
            }
        }
    }

    /** Whether {@code path} changed since it was last read: it is read at the next interval (tests). */
    boolean changedSinceRead(String path) {
        return changed.contains(path);
    }

    /** Whether {@code path} is being read again after a lower value was seen, its answer not taken yet (tests). */
    boolean confirming(String path) {
        return confirming.contains(path);
    }

    /** Whether {@code path} is watched now (tests). */
    boolean watching(String path) {
        return armed.contains(path);
    }

    @Override
    public void close() {
        watched.clear();
        // a 3.4 server closes the connection on the request that removes watches (it does not know it); without a
        // connection there is nothing to tell: the watches end with the session, and changed() ignores the rest
        if (client.getZookeeperClient().isConnected() && hasWatchRemoval()) {
            client.removeWatchers();
        }
    }

    private boolean hasWatchRemoval() {
        try {
            return io.zkgroups.registry.server.ServerCapabilities.of(client).hasWatchRemoval();
        } catch (RuntimeException unknown) {
            return false;
        }
    }
}
