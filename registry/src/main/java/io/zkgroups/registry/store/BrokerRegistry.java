package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.BrokerInfoCodec;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.model.BrokerInfo;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Broker registrations under {@code /brokers/ids}. Consumers only read them; {@link #register} exists for
 * tests and tools that stand in for a broker.
 * <p>
 * Thread-safe: it keeps no state of its own.
 */
public final class BrokerRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;

    public BrokerRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /**
     * Registers {@code broker} as an ephemeral node of this client's session, written as a v1 registration.
     * Registering again from the same session rewrites the data.
     *
     * @throws AlreadyRegisteredException if another live session holds the id
     */
    public void register(BrokerInfo broker) {
        String path = layout.broker(broker.id());
        byte[] data = BrokerInfoCodec.encode(broker);
        znodes.ensurePersistent(layout.brokerIds());
        try {
            znodes.create(path, data, CreateMode.EPHEMERAL);
        } catch (KeeperException.NodeExistsException exists) {
            Optional<Znodes.Data> current = znodes.read(path);
            if (!current.isPresent()) {
                register(broker); // vanished between create and read: try again
                return;
            }
            long holder = current.get().stat().getEphemeralOwner();
            if (holder != znodes.sessionId()) {
                throw new AlreadyRegisteredException(path, holder, current.get().bytes());
            }
            znodes.writePersistent(path, data);
        } catch (Exception e) {
            throw RegistryException.of("registering broker at", path, e);
        }
    }

    /** Every registered broker, sorted by id; unreadable registrations are reported, not thrown. */
    public Listing<BrokerInfo> list() {
        return list(null);
    }

    /** As {@link #list()}, arming {@code watcher} on the children of {@code /brokers/ids}. */
    public Listing<BrokerInfo> list(Watcher watcher) {
        List<BrokerInfo> brokers = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        for (String child : znodes.children(layout.brokerIds(), watcher)) {
            String path = layout.brokerIds() + "/" + child;
            OptionalInt id = ZkLayout.parsePartition(child);
            if (!id.isPresent()) {
                unreadable.add(new Unreadable(path, "broker id '" + child + "' is not a number"));
                continue;
            }
            Optional<Znodes.Data> data = znodes.read(path);
            if (!data.isPresent()) {
                continue; // the broker went away while we listed
            }
            try {
                brokers.add(BrokerInfoCodec.decode(id.getAsInt(), data.get().bytes()));
            } catch (DecodeException e) {
                unreadable.add(new Unreadable(path, e.getMessage()));
            }
        }
        brokers.sort(Comparator.comparingInt(BrokerInfo::id));
        return new Listing<>(brokers, unreadable);
    }

    /** An ephemeral registration is held by another live session. */
    public static final class AlreadyRegisteredException extends RegistryException {
        private static final long serialVersionUID = 1L;
        private final String path;
        private final long holderSession;

        public AlreadyRegisteredException(String path, long holderSession, byte[] holderData) {
            super(path + " is already registered by session 0x" + Long.toHexString(holderSession)
                    + " with data " + printable(holderData)
                    + "; another live process uses the same id (stop it, or wait for its session to expire)");
            this.path = path;
            this.holderSession = holderSession;
        }

        public String path() {
            return path;
        }

        public long holderSession() {
            return holderSession;
        }

        static String printable(byte[] data) {
            if (data == null) {
                return "null";
            }
            String text = new String(data, StandardCharsets.UTF_8);
            return "'" + (text.length() > 200 ? text.substring(0, 197) + "..." : text) + "'";
        }
    }
}
