package io.zkgroups.rebalancer.cutover;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.utils.LogContext;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;

import java.io.Closeable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * The group's coordination decision as a member sees it: read at {@link #start()}, then kept current by a watch on
 * {@code /consumers/G/zkgroups-coordination} (re-armed on every event and after a reconnection). Absent means
 * ZooKeeper. A decision that cannot be read keeps the last one known, logged at WARN.
 * <p>
 * <b>Threading.</b> {@link #coordinator()} on any thread (a volatile); {@link #start()} reads on the caller's thread,
 * later reads run on the watch's own thread.
 */
public final class CoordinationWatch implements Closeable {

    private final Logger log;
    private final CuratorFramework curator;
    private final ZkRegistry registry;
    private final String group;
    /** Reads run here, never on ZooKeeper's event thread: a read that waits would hold up its connection events. */
    private final ExecutorService reader;
    private final Watcher watcher = event -> {
        if (event.getType() != Watcher.Event.EventType.None) {
            refreshLater();
        }
    };
    private final ConnectionStateListener reconnected = (client, state) -> {
        if (state == ConnectionState.RECONNECTED) {
            refreshLater();
        }
    };
    private volatile Coordinator coordinator = Coordinator.ZOOKEEPER;
    private volatile boolean closed;

    private final java.util.function.Consumer<Coordinator> onChange;

    /** @param onChange told of the coordinator read at start and of every change, on the thread that read it */
    public CoordinationWatch(CuratorFramework curator, String group, String logPrefix,
                             java.util.function.Consumer<Coordinator> onChange) {
        this.curator = curator;
        this.onChange = onChange;
        this.registry = ZkRegistry.of(curator);
        this.group = group;
        this.log = new LogContext(logPrefix).logger(CoordinationWatch.class);
        this.reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "zkgroups-coordination-" + group);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Reads the decision and arms the watch. A decision that cannot be read (ZooKeeper fails, the znode cannot be
     * decoded) is logged at WARN and read again on the next reconnection; the member follows ZooKeeper meanwhile.
     */
    public void start() {
        curator.getConnectionStateListenable().addListener(reconnected);
        refresh();
    }

    /** The coordinator the group follows, as last read. */
    public Coordinator coordinator() {
        return coordinator;
    }

    private Coordinator read() {
        return registry.coordination().decision(group, watcher).map(CoordinationDecision::coordinator)
                .orElse(Coordinator.ZOOKEEPER);
    }

    private void refreshLater() {
        if (!closed) {
            try {
                reader.execute(this::refresh);
            } catch (RejectedExecutionException closedMeanwhile) {
                // closed: nothing to follow any more
            }
        }
    }

    private void refresh() {
        if (closed) {
            return;
        }
        try {
            Coordinator now = read();
            Coordinator before = coordinator;
            coordinator = now;
            if (now != before) {
                log.info("group {} is to be coordinated by {} now", group, now.label());
            }
            onChange.accept(now);
        } catch (RegistryException e) {
            log.warn("could not read the coordination decision of group {}; following {} still: {}", group,
                    coordinator.label(), e.getMessage());
        }
    }

    @Override
    public void close() {
        closed = true;
        curator.getConnectionStateListenable().removeListener(reconnected);
        reader.shutdownNow();
    }
}
