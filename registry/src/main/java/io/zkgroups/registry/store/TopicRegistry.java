package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.PartitionStateCodec;
import io.zkgroups.registry.codec.TopicRegistrationCodec;
import io.zkgroups.registry.model.PartitionState;
import io.zkgroups.registry.model.TopicRegistration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;

/**
 * Topic registrations under {@code /brokers/topics}: what partitions a topic has, and the watches that
 * tell a group when partitions are added or topics appear.
 * <p>
 * Thread-safe: it keeps no state of its own.
 */
public final class TopicRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;

    public TopicRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /** The ZooKeeper session this registry's reads and watches belong to (watches end with it). */
    public long sessionId() {
        return znodes.sessionId();
    }

    /**
     * Creates {@code /brokers/topics/T} (persistent, v1 JSON) as 0.8.2.2's {@code AdminUtils} does.
     *
     * @throws TopicExistsException if the topic is already registered
     */
    public void create(String topic, TopicRegistration registration) {
        String path = layout.topic(topic);
        znodes.ensurePersistent(layout.topics());
        try {
            znodes.create(path, TopicRegistrationCodec.encode(registration), CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException exists) {
            throw new TopicExistsException(path);
        } catch (Exception e) {
            throw RegistryException.of("creating topic", path, e);
        }
    }

    /**
     * Raises the partition count of {@code topic} to {@code newCount}; new partitions get
     * {@code replicasOfNew}. Compare-and-set on the znode version, so a concurrent change is not lost.
     */
    public TopicRegistration addPartitions(String topic, int newCount, List<Integer> replicasOfNew) {
        String path = layout.topic(topic);
        while (true) {
            Znodes.Data current = znodes.read(path)
                    .orElseThrow(() -> new RegistryException("topic " + topic + " does not exist (" + path + ")"));
            TopicRegistration updated = decode(path, current.bytes()).withPartitionCount(newCount, replicasOfNew);
            try {
                znodes.client().setData().withVersion(current.stat().getVersion())
                        .forPath(path, TopicRegistrationCodec.encode(updated));
                return updated;
            } catch (KeeperException.BadVersionException raced) {
                // someone else changed it: read again
            } catch (Exception e) {
                throw RegistryException.of("updating topic", path, e);
            }
        }
    }

    /** The registration of {@code topic}, empty if it is not registered. */
    public Optional<TopicRegistration> read(String topic) {
        return read(topic, null);
    }

    /**
     * As {@link #read(String)}, arming {@code watcher} on the topic's data (or on its creation when it does
     * not exist yet) — the watch 0.8.2.2 members use to notice added partitions.
     *
     * @throws CorruptZnodeException if the registration cannot be decoded
     */
    public Optional<TopicRegistration> read(String topic, Watcher watcher) {
        String path = layout.topic(topic);
        return znodes.read(path, watcher).map(data -> decode(path, data.bytes()));
    }

    /** What {@link #readAll} found. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Registrations {
        private final Map<String, TopicRegistration> registrations;
        private final Map<String, Unreadable> unreadable;

        /**
         * Creates it from its parts.
         *
         * @param registrations the readable registrations, by topic; topics that are not registered are absent
         * @param unreadable    by topic, the registrations that exist but cannot be decoded (path and reason)
         */
        public Registrations(Map<String, TopicRegistration> registrations, Map<String, Unreadable> unreadable) {
            registrations = Collections.unmodifiableMap(new TreeMap<>(registrations));
            unreadable = Collections.unmodifiableMap(new TreeMap<>(unreadable));
            this.registrations = registrations;
            this.unreadable = unreadable;
        }

        public Map<String, TopicRegistration> registrations() {
            return registrations;
        }

        public Map<String, Unreadable> unreadable() {
            return unreadable;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Registrations)) {
                return false;
            }
            Registrations that = (Registrations) o;
            return Objects.equals(registrations, that.registrations)
                    && Objects.equals(unreadable, that.unreadable);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(registrations);
            h = 31 * h + Objects.hashCode(unreadable);
            return h;
        }

        @Override
        public String toString() {
            return "Registrations[registrations=" + registrations + ", unreadable=" + unreadable + "]";
        }
    }

    /**
     * Registrations of {@code topics}, read at once (about one round trip for all of them). {@code watcher} (if
     * given) is armed on each topic's data, or on its creation when it does not exist yet; an undecodable
     * registration is watched like any other, so its repair is heard of. A bad registration never fails the read
     * of the others: it is reported in {@link Registrations#unreadable()}.
     */
    public Registrations readAll(Collection<String> topics, Watcher watcher) {
        Map<String, TopicRegistration> registrations = new TreeMap<>();
        Map<String, Unreadable> unreadable = new TreeMap<>();
        readEach(topics, watcher, TopicRegistrationCodec::decode, registrations, unreadable);
        return new Registrations(registrations, unreadable);
    }

    /** The partition counts of {@code topics} and nothing else: see {@link TopicRegistrationCodec#partitionCount}. */
    public static final class PartitionCounts {
        private final Map<String, Integer> counts;
        private final Map<String, Unreadable> unreadable;

        PartitionCounts(Map<String, Integer> counts, Map<String, Unreadable> unreadable) {
            this.counts = Collections.unmodifiableMap(counts);
            this.unreadable = Collections.unmodifiableMap(unreadable);
        }

        /** By topic, the partition count of each readable registration; topics not registered are absent. */
        public Map<String, Integer> counts() {
            return counts;
        }

        /** By topic, the registrations that exist but cannot be decoded (path and reason). */
        public Map<String, Unreadable> unreadable() {
            return unreadable;
        }
    }

    /**
     * As {@link #readAll}, but only how many partitions each topic has, which is all a group member needs: a
     * registration of thousands of partitions is counted without building its replica lists.
     */
    public PartitionCounts partitionCounts(Collection<String> topics, Watcher watcher) {
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, Unreadable> unreadable = new TreeMap<>();
        readEach(topics, watcher, TopicRegistrationCodec::partitionCount, counts, unreadable);
        return new PartitionCounts(counts, unreadable);
    }

    /** What {@link #readAll} and {@link #partitionCounts} make of one registration's bytes. */
    private interface Decoder<T> {
        T decode(byte[] data) throws DecodeException;
    }

    /** Reads {@code topics}' registrations at once and decodes each into {@code decoded} or {@code unreadable}. */
    private <T> void readEach(Collection<String> topics, Watcher watcher, Decoder<T> decoder, Map<String, T> decoded,
                              Map<String, Unreadable> unreadable) {
        Map<String, String> byPath = new TreeMap<>();
        topics.forEach(topic -> byPath.put(layout.topic(topic), topic));
        Map<String, Znodes.Data> read = znodes.readAll(byPath.keySet(), watcher);
        byPath.forEach((path, topic) -> {
            Znodes.Data data = read.get(path);
            if (data == null && watcher != null && znodes.existsWatch(path, watcher)) {
                data = znodes.read(path, watcher).orElse(null); // created meanwhile; rare
            }
            if (data != null) {
                try {
                    decoded.put(topic, decoder.decode(data.bytes()));
                } catch (DecodeException e) {
                    unreadable.put(topic, new Unreadable(path, e.getMessage()));
                }
            }
        });
    }

    /** Names of every registered topic (children of {@code /brokers/topics}); arms {@code watcher} if given. */
    public List<String> topics(Watcher watcher) {
        List<String> topics = new ArrayList<>();
        for (String child : znodes.children(layout.topics(), watcher)) {
            if (ZkNames.isValid(child)) {
                topics.add(child);
            }
        }
        topics.sort(null);
        return topics;
    }

    public List<String> topics() {
        return topics(null);
    }

    /** Leader and ISR of a partition, empty if the controller has not written it. */
    public Optional<PartitionState> partitionState(String topic, int partition) {
        String path = layout.partitionState(topic, partition);
        return znodes.read(path).map(data -> {
            try {
                return PartitionStateCodec.decode(data.bytes());
            } catch (DecodeException e) {
                throw new CorruptZnodeException(path, e.getMessage(), e);
            }
        });
    }

    private static TopicRegistration decode(String path, byte[] data) {
        try {
            return TopicRegistrationCodec.decode(data);
        } catch (DecodeException e) {
            throw new CorruptZnodeException(path, e.getMessage(), e);
        }
    }

    /** The topic is already registered. */
    public static final class TopicExistsException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public TopicExistsException(String path) {
            super("topic already exists: " + path);
        }
    }
}
