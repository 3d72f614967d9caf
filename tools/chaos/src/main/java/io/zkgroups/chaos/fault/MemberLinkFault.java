package io.zkgroups.chaos.fault;

import io.zkgroups.testing.TcpProxy;
import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Latency or a stall on one member's links to ZooKeeper or to Kafka, through that member's own proxies: the other
 * members and the tools are not touched.
 */
final class MemberLinkFault implements Fault {

    enum Link { ZOOKEEPER, KAFKA }

    enum Kind { LATENCY, STALL }

    private final Link link;
    private final Kind kind;

    MemberLinkFault(Link link, Kind kind) {
        this.link = link;
        this.kind = kind;
    }

    @Override
    public String name() {
        return "member-" + (link == Link.ZOOKEEPER ? "zk" : "kafka") + "-" + kind.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String description() {
        String to = link == Link.ZOOKEEPER ? "ZooKeeper (all three servers)" : "the broker";
        return kind == Kind.LATENCY
                ? "add 100-1000 ms to every chunk on one member's links to " + to + " for 2 x the session timeout"
                : "stop all bytes on one member's links to " + to + " (connections stay open) for 1.5 x the session "
                        + "timeout" + (link == Link.ZOOKEEPER ? ": its session expires while it cannot hear about it" : "");
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slot = link == Link.KAFKA ? Faults.zkgroupsSlot(cluster, random) : Faults.slot(cluster, random);
        long latencyMs = 100 + random.nextInt(901);
        long millis = Faults.sessionMs(cluster) * (kind == Kind.LATENCY ? 4 : 3) / 2;
        if (link == Link.KAFKA && slot.legacy()) {
            return "skipped: no zkgroups member (0.8.2.2 consumers reach the broker without a proxy)";
        }
        MemberProcess target = Faults.running(cluster, slot);
        List<TcpProxy> proxies = link == Link.ZOOKEEPER ? slot.zookeeperProxies() : List.of(slot.kafkaProxy());
        cluster.journal().log(kind == Kind.LATENCY ? "DELAY" : "STALL", target.name() + " " + link.name().toLowerCase(Locale.ROOT)
                + (kind == Kind.LATENCY ? " " + latencyMs + "ms" : ""));
        for (TcpProxy p : proxies) {
            if (kind == Kind.LATENCY) {
                p.delay(latencyMs);
            } else {
                p.blackhole();
            }
        }
        Faults.hold(millis);
        proxies.forEach(TcpProxy::heal);
        cluster.journal().log("HEAL", target.name() + " " + link.name().toLowerCase(Locale.ROOT));
        return (kind == Kind.LATENCY ? latencyMs + " ms latency" : "stall") + " on " + target.name() + "'s "
                + link.name().toLowerCase(Locale.ROOT) + " links for " + millis + " ms";
    }
}
