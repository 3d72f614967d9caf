package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.MemberAlarmsCodec;
import io.zkgroups.registry.model.ConsumerId;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.zookeeper.CreateMode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What zkgroups members cannot do now (partitions Kafka does not let them fetch, offsets they cannot read), published
 * for the tools under {@code /consumers/G/zkgroups/alarms}: one <b>ephemeral</b> znode per member that has alarms, in
 * the member's session, gone when the alarms clear or the session ends. 0.8.2.2 members and the 0.8-era tools never
 * read below {@code /consumers/G/zkgroups}.
 * <p>
 * Writes are sent in the background and never wait: a member reports on its event loop, which must not wait on
 * ZooKeeper for a report. Thread-safe: it keeps no state of its own.
 */
public final class MemberAlarmRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;

    public MemberAlarmRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /**
     * Publishes {@code alarms} as {@code id}'s, in this client's session; an empty list removes the znode. Sent in the
     * background: {@code done} hears the result code (0 when written, ZooKeeper's code otherwise).
     */
    public void publish(String group, ConsumerId id, List<Unreadable> alarms, BackgroundCallback done) throws Exception {
        String path = layout.memberAlarm(group, id);
        if (alarms.isEmpty()) {
            znodes.client().delete().quietly().inBackground(done).forPath(path);
        } else {
            // parents are plain persistent znodes, like the rest of the group's directories
            znodes.client().create().orSetData().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .inBackground(done).forPath(path, MemberAlarmsCodec.encode(alarms));
        }
    }

    /** What members of {@code group} publish now, by consumer id; znodes that cannot be decoded are reported. */
    public Reading read(String group) {
        String dir = layout.memberAlarms(group);
        List<String> paths = new ArrayList<>();
        for (String child : znodes.children(dir)) {
            paths.add(dir + "/" + child);
        }
        SortedMap<ConsumerId, List<Unreadable>> alarms = new TreeMap<>();
        List<Unreadable> unreadable = new ArrayList<>();
        for (Map.Entry<String, Znodes.Data> read : new TreeMap<>(znodes.readAll(paths, null)).entrySet()) {
            String name = read.getKey().substring(dir.length() + 1);
            try {
                alarms.put(new ConsumerId(name), MemberAlarmsCodec.decode(read.getValue().bytes()));
            } catch (DecodeException | IllegalArgumentException e) {
                unreadable.add(new Unreadable(read.getKey(), e.getMessage()));
            }
        }
        return new Reading(alarms, unreadable);
    }

    /** Alarms by member, and the alarm znodes that could not be read. */
    public static final class Reading {
        private final SortedMap<ConsumerId, List<Unreadable>> alarms;
        private final List<Unreadable> unreadable;

        public Reading(SortedMap<ConsumerId, List<Unreadable>> alarms, List<Unreadable> unreadable) {
            this.alarms = Collections.unmodifiableSortedMap(new TreeMap<>(alarms));
            this.unreadable = Collections.unmodifiableList(new ArrayList<>(unreadable));
        }

        public SortedMap<ConsumerId, List<Unreadable>> alarms() {
            return alarms;
        }

        public List<Unreadable> unreadable() {
            return unreadable;
        }
    }
}
