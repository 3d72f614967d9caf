package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.CoordinationCodec;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A group's coordination decision ({@code /consumers/G/zkgroups-coordination}, docs/cutover.md), and the owner znodes
 * a member holds while Kafka's group coordinator assigns its partitions: the same ephemeral
 * {@code /consumers/G/owners/T/P} with the member's thread id as a ZooKeeper-coordinated owner writes, created without
 * a registration under {@code ids} (the member has left the ZooKeeper group). An owner znode is the hand-off fence
 * between the two worlds: whoever holds it may fetch the partition. They are released through
 * {@link OwnerRegistry#release}.
 * <p>
 * Thread-safe, as Curator is.
 */
public final class CoordinationRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;

    public CoordinationRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = znodes;
        this.layout = layout;
    }

    /**
     * The recorded decision, empty when none was ever recorded (the group is on ZooKeeper); arms {@code watcher} (if
     * given) on the znode's creation or change.
     *
     * @throws RegistryException if ZooKeeper fails or the znode cannot be decoded (the path and reason are named)
     */
    public Optional<CoordinationDecision> decision(String group, Watcher watcher) {
        String path = layout.coordination(group);
        Optional<Znodes.Data> data = znodes.read(path, watcher);
        if (!data.isPresent()) {
            return Optional.empty();
        }
        try {
            return Optional.of(CoordinationCodec.decode(data.get().bytes()));
        } catch (DecodeException e) {
            throw new RegistryException(path + ": " + e.getMessage(), e);
        }
    }

    public Optional<CoordinationDecision> decision(String group) {
        return decision(group, null);
    }

    /** Records {@code decision}, replacing the one before (creating the znode and its parents if needed). */
    public void decide(String group, CoordinationDecision decision) {
        znodes.writePersistent(layout.coordination(group), CoordinationCodec.encode(decision));
    }

    /**
     * Creates the owner znode of {@code tp} for {@code thread} in this client's session, unless someone holds it.
     * Returns true if this session holds it now (created, or held already); false if another session does.
     *
     * @throws RegistryException if ZooKeeper fails
     */
    public boolean hold(String group, TopicAndPartition tp, ThreadId thread) {
        String path = layout.owner(group, tp);
        byte[] data = thread.toString().getBytes(StandardCharsets.UTF_8);
        try {
            try {
                znodes.create(path, data, CreateMode.EPHEMERAL);
                return true;
            } catch (KeeperException.NoNodeException noParent) {
                znodes.ensurePersistent(Znodes.parentOf(path));
                znodes.create(path, data, CreateMode.EPHEMERAL);
                return true;
            }
        } catch (KeeperException.NodeExistsException held) {
            return znodes.read(path).map(d -> d.stat().getEphemeralOwner() == znodes.sessionId()).orElse(false);
        } catch (Exception e) {
            throw RegistryException.of("creating", path, e);
        }
    }
}
