package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.TcpProxy;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A place in the group that outlives its processes: the member's own proxies to each ZooKeeper server and to the
 * broker (its {@code zookeeper.connect} and {@code bootstrap.servers} point at them, so a fault can slow or cut
 * one member's links), its behaviour, and the incarnation that runs now.
 */
public final class MemberSlot implements AutoCloseable {

    /** The mode of a slot that runs real 0.8.2.2 consumers. */
    static final String LEGACY = "legacy";

    private final int index;
    private final List<TcpProxy> zookeeperProxies;
    private final TcpProxy kafkaProxy;
    private final String mode;
    private int incarnations;
    private MemberProcess current;

    MemberSlot(int index, List<TcpProxy> zookeeperProxies, TcpProxy kafkaProxy, String mode) {
        this.index = index;
        this.zookeeperProxies = List.copyOf(zookeeperProxies);
        this.kafkaProxy = kafkaProxy;
        this.mode = mode;
    }

    public int index() {
        return index;
    }

    /** The member's {@code zookeeper.connect}: its proxies, one per server. */
    String zookeeperConnect() {
        return zookeeperProxies.stream().map(p -> "127.0.0.1:" + p.port()).collect(Collectors.joining(","));
    }

    public List<TcpProxy> zookeeperProxies() {
        return zookeeperProxies;
    }

    public TcpProxy kafkaProxy() {
        return kafkaProxy;
    }

    String mode() {
        return mode;
    }

    /**
     * The mode of the incarnation {@link #nextName()} named last: a broken mode is the slot's first process's only,
     * its successors run correctly (so that a run that kills the broken member can drain and end).
     */
    String currentMode() {
        return incarnations > 1 && !legacy() ? "correct" : mode;
    }

    /** Runs real 0.8.2.2 consumers: no rebalance listener, no stdin commands, and its Kafka traffic bypasses the proxy. */
    public boolean legacy() {
        return mode.equals(LEGACY);
    }

    /** The consumer id every incarnation shares when the slot restarts by session hand-over: {@code m<slot>}. */
    String stableId() {
        return "m" + index;
    }

    /** The name of the next incarnation, {@code m<slot>-<n>} ({@code l<slot>-<n>} for 0.8.2.2). */
    String nextName() {
        incarnations++;
        return (legacy() ? "l" : "m") + index + "-" + incarnations;
    }

    public MemberProcess current() {
        return current;
    }

    void current(MemberProcess process) {
        this.current = process;
    }

    @Override
    public void close() {
        zookeeperProxies.forEach(TcpProxy::close);
    }
}
