package io.zkgroups.tool.io;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.TopicRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The tool's ZooKeeper side: groups, members, owners and offsets of the 0.8 layout, through the registry's
 * stores. Paths come from {@link ZkLayout}; nothing here parses znode data itself except through the registry's
 * codecs.
 */
public final class ZkGroups {

    private final ZkRegistry registry;
    private final Duration timeout;

    public ZkGroups(ZkRegistry registry, Duration timeout) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    public ZkRegistry registry() {
        return registry;
    }

    private ZkLayout layout() {
        return registry.layout();
    }

    private Znodes znodes() {
        return registry.znodes();
    }

    /** Every group under {@code /consumers}, sorted; children that are not legal group ids are skipped. */
    public List<String> groups() {
        List<String> groups = new ArrayList<>();
        for (String child : znodes().children(layout().consumers())) {
            if (ZkNames.isValid(child)) {
                groups.add(child);
            }
        }
        Collections.sort(groups);
        return groups;
    }

    public boolean exists(String group) {
        return znodes().exists(layout().group(group));
    }

    public Listing<Member> members(String group, Watcher watcher) {
        return registry.members().list(group, watcher);
    }

    /** What the group's zkgroups members publish that they cannot do now (Kafka unreachable, offsets unreadable). */
    public MemberAlarmRegistry.Reading memberAlarms(String group) {
        return registry.memberAlarms().read(group);
    }

    /** Every owner znode; arms {@code watcher} (if given) on the owner directories' children. */
    public Listing<PartitionOwner> owners(String group, Watcher watcher) {
        if (watcher != null) {
            for (String topic : znodes().children(layout().owners(group), watcher)) {
                if (ZkNames.isValid(topic)) {
                    znodes().children(layout().owners(group, topic), watcher);
                }
            }
        }
        return registry.owners().owners(group);
    }

    /** Topics under {@code /consumers/G/owners} and {@code /consumers/G/offsets}. */
    public Set<String> topicsOf(String group) {
        Set<String> topics = new TreeSet<>();
        znodes().children(layout().owners(group)).stream().filter(ZkNames::isValid).forEach(topics::add);
        znodes().children(layout().offsets(group)).stream().filter(ZkNames::isValid).forEach(topics::add);
        return topics;
    }

    /**
     * The group's offsets with their znodes' mtimes, read in one pipelined round; arms {@code watcher} (if given)
     * on every offset znode and on the offset directories, so a commit wakes a waiting {@code health --wait}.
     */
    public ZkOffsetSnapshot offsetsWithMtimes(String group, Watcher watcher) {
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        List<Unreadable> strays = new ArrayList<>();
        for (String topic : znodes().children(layout().offsets(group), watcher)) {
            String topicPath = layout().offsets(group) + "/" + topic;
            if (!ZkNames.isValid(topic)) {
                strays.add(new Unreadable(topicPath, "'" + topic + "' is not a valid topic name"));
                continue;
            }
            for (String child : znodes().children(topicPath, watcher)) {
                OptionalInt p = ZkLayout.parsePartition(child);
                if (p.isEmpty()) {
                    strays.add(new Unreadable(topicPath + "/" + child, "'" + child + "' is not a partition number"));
                } else {
                    byPath.put(topicPath + "/" + child, new TopicAndPartition(topic, p.getAsInt()));
                }
            }
        }
        if (byPath.isEmpty()) {
            return new ZkOffsetSnapshot(Map.of(), Map.of(), Map.of(), strays);
        }
        Map<TopicAndPartition, Long> offsets = new ConcurrentHashMap<>();
        Map<TopicAndPartition, Instant> mtimes = new ConcurrentHashMap<>();
        Map<TopicAndPartition, Unreadable> undecodable = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch replies = new CountDownLatch(byPath.size());
        BackgroundCallback callback = (client, event) -> {
            try {
                TopicAndPartition tp = byPath.get(event.getPath());
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.NONODE.intValue()) {
                    return; // deleted while we listed
                }
                if (rc != KeeperException.Code.OK.intValue()) {
                    failures.add(event.getPath() + ": " + KeeperException.Code.get(rc));
                    return;
                }
                try {
                    offsets.put(tp, OffsetCodec.decode(event.getData()));
                    Stat stat = event.getStat();
                    mtimes.put(tp, Instant.ofEpochMilli(stat.getMtime()));
                } catch (DecodeException e) {
                    undecodable.put(tp, new Unreadable(event.getPath(), e.getMessage()));
                }
            } finally {
                replies.countDown();
            }
        };
        try {
            for (String path : byPath.keySet()) {
                if (watcher == null) {
                    znodes().client().getData().inBackground(callback).forPath(path);
                } else {
                    znodes().client().getData().usingWatcher(watcher).inBackground(callback).forPath(path);
                }
            }
            if (!replies.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new CliException(ExitCode.UNREACHABLE, "ZooKeeper did not answer within " + timeout.toSeconds()
                        + " s while reading the offsets of group " + group);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted while reading the offsets of group " + group, e);
        } catch (CliException e) {
            throw e;
        } catch (Exception e) {
            throw RegistryException.of("reading offsets under", layout().offsets(group), e);
        }
        if (!failures.isEmpty()) {
            throw new RegistryException("reading offsets of group " + group + " failed for " + failures.size()
                    + " znodes, e.g. " + failures.get(0));
        }
        return new ZkOffsetSnapshot(offsets, mtimes, undecodable, strays);
    }

    /** The group's offsets, pipelined (the fast path for migration): unreadable znodes are reported in the result. */
    public OffsetRegistry.OffsetRead offsets(String group) {
        return registry.offsets().readAll(group);
    }

    /** Writes offsets (next offset to consume), skipping values already stored. */
    public void commit(String group, Map<TopicAndPartition, Long> offsets) {
        if (!offsets.isEmpty()) {
            registry.offsets().commit(group, offsets);
        }
    }

    /**
     * ZooKeeper's time now: the ctime of an ephemeral znode this session creates under the layout's root and
     * deletes at once (nothing is written under {@code /consumers}; if the delete fails, the znode goes with the
     * session).
     *
     * @throws RegistryException if the znode cannot be created (e.g. an ACL refuses it)
     */
    public Instant serverTime() {
        Stat stat;
        String path;
        try {
            path = znodes().create(layout().clockProbe(), new byte[0], CreateMode.EPHEMERAL_SEQUENTIAL);
            stat = znodes().client().checkExists().forPath(path);
            if (stat == null) {
                throw new KeeperException.NoNodeException(path);
            }
        } catch (Exception e) {
            throw RegistryException.of("creating", layout().clockProbe(), e);
        }
        try {
            znodes().client().delete().forPath(path);
        } catch (Exception e) {
            // an ephemeral: it ends with the session anyway
        }
        return Instant.ofEpochMilli(stat.getCtime());
    }

    /** Registered brokers (for deriving the bootstrap servers). */
    public Listing<BrokerInfo> brokers() {
        return registry.brokers().list();
    }

    /** Whether the cluster registers its topics in ZooKeeper (a ZooKeeper-mode cluster). */
    public boolean hasTopicRegistry() {
        return !znodes().children(layout().topics()).isEmpty();
    }

    /**
     * Registrations of those {@code topics} registered in {@code /brokers/topics}, read at once, and the ones that
     * cannot be decoded; arms a data watch on each if given.
     */
    public TopicRegistry.Registrations topicRegistrations(Set<String> topics, Watcher watcher) {
        return registry.topics().readAll(topics, watcher);
    }

    /**
     * Partition counts of those {@code topics} registered in {@code /brokers/topics}; arms a data watch if given.
     *
     * @throws io.zkgroups.registry.store.CorruptZnodeException if a registration cannot be decoded
     */
    public Map<String, Integer> partitionCounts(Set<String> topics, Watcher watcher) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String topic : topics) {
            registry.topics().read(topic, watcher).ifPresent(r -> counts.put(topic, r.partitionCount()));
        }
        return counts;
    }

    /** Every topic in {@code /brokers/topics}; arms a children watch if given. */
    public List<String> topics(Watcher watcher) {
        return registry.topics().topics(watcher);
    }

    /** What {@link #delete} would delete, deepest first: the znodes below {@code root} and {@code root} itself. */
    public List<String> subtree(String root) {
        List<String> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private void collect(String path, List<String> out) {
        if (!znodes().exists(path)) {
            return;
        }
        for (String child : znodes().children(path)) {
            collect(path + "/" + child, out);
        }
        out.add(path);
    }

    /**
     * Deletes the persistent znodes {@code paths} (deepest first, as {@link #subtree} lists them) one by one with
     * plain deletes: an ephemeral node found on the way (a member or owner that appeared since the check) stops
     * the deletion, and so does a directory that gained a child.
     *
     * @return the number of znodes deleted
     * @throws CliException {@link ExitCode#GROUP_ACTIVE} when a live node is in the way
     */
    public int delete(String group, List<String> paths) {
        int deleted = 0;
        for (String path : paths) {
            Optional<Znodes.Data> data = znodes().read(path);
            if (data.isEmpty()) {
                continue;
            }
            if (data.get().stat().getEphemeralOwner() != 0) {
                throw new CliException(ExitCode.GROUP_ACTIVE, "group " + group + " became active during the delete: "
                        + path + " is held by a live session; stopped after deleting " + deleted + " znodes");
            }
            try {
                znodes().client().delete().withVersion(data.get().stat().getVersion()).forPath(path);
                deleted++;
            } catch (KeeperException.NoNodeException gone) {
                // fine
            } catch (KeeperException.NotEmptyException | KeeperException.BadVersionException changed) {
                throw new CliException(ExitCode.GROUP_ACTIVE, "group " + group + " changed during the delete: " + path
                        + " gained a child or changed; stopped after deleting " + deleted + " znodes");
            } catch (Exception e) {
                throw RegistryException.of("deleting", path, e);
            }
        }
        return deleted;
    }

    public ZkLayout paths() {
        return layout();
    }
}
