package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.MemberAlarmsCodec;
import io.zkgroups.registry.model.ConsumerId;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What zkgroups members cannot do now (partitions Kafka does not let them fetch, offsets they cannot read), published
 * for the tools under {@code /consumers/G/zkgroups-alarms}: one <b>ephemeral</b> znode per member that has alarms, in
 * the member's session, gone when the alarms clear or the session ends. 0.8.2.2 members and the 0.8-era tools never
 * read {@code /consumers/G/zkgroups-alarms}.
 * <p>
 * Thread-safe: it keeps no state of its own.
 */
public final class MemberAlarmRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;

    public MemberAlarmRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /**
     * Writes {@code alarms} as {@code id}'s, an ephemeral znode of this client's session; an empty list removes it.
     * Blocking (the caller runs it off any thread that must not wait on ZooKeeper), and with requests every server
     * generation implements: a 3.4 server closes the connection on a {@code create2}, which Curator sends for every
     * create of its own.
     */
    public void write(String group, ConsumerId id, List<Unreadable> alarms) throws Exception {
        String path = layout.memberAlarm(group, id);
        if (alarms.isEmpty()) {
            try {
                znodes.client().delete().forPath(path);
            } catch (KeeperException.NoNodeException gone) {
                // nothing published
            }
            return;
        }
        byte[] data = MemberAlarmsCodec.encode(alarms);
        long session = znodes.sessionId();
        try {
            Stat stat = znodes.client().setData().forPath(path, data);
            if (stat.getEphemeralOwner() == session) {
                return;
            }
            // an earlier session's (a previous process of this consumer id): ours replaces it
            znodes.client().delete().withVersion(stat.getVersion()).forPath(path);
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException absent) {
            // created below
        }
        try {
            znodes.create(path, data, CreateMode.EPHEMERAL);
        } catch (KeeperException.NoNodeException noDirectory) {
            znodes.ensurePersistent(layout.memberAlarms(group)); // plain persistent, like the group's directories
            znodes.create(path, data, CreateMode.EPHEMERAL);
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
