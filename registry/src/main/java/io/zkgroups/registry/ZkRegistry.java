package io.zkgroups.registry;

import io.zkgroups.registry.store.BrokerRegistry;
import io.zkgroups.registry.store.CoordinationRegistry;
import io.zkgroups.registry.store.GroupScan;
import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.MemberRegistry;
import io.zkgroups.registry.store.OwnerRegistry;
import io.zkgroups.registry.store.TopicRegistry;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.registry.store.Znodes;
import org.apache.curator.framework.CuratorFramework;

/** The 0.8 layout's stores over one Curator client: the entry point for everything above the registry. */
public final class ZkRegistry {

    private final ZkLayout layout;
    private final Znodes znodes;
    private final BrokerRegistry brokers;
    private final TopicRegistry topics;
    private final MemberRegistry members;
    private final OwnerRegistry owners;
    private final OffsetRegistry offsets;
    private final CoordinationRegistry coordination;

    public ZkRegistry(CuratorFramework client, ZkLayout layout) {
        this(client, layout, Time.SYSTEM);
    }

    /** @param time the clock the stores measure their waits with */
    public ZkRegistry(CuratorFramework client, ZkLayout layout, Time time) {
        this.layout = layout;
        this.znodes = new Znodes(client);
        this.brokers = new BrokerRegistry(znodes, layout);
        this.topics = new TopicRegistry(znodes, layout);
        this.members = new MemberRegistry(znodes, layout, time);
        this.owners = new OwnerRegistry(znodes, layout);
        this.offsets = new OffsetRegistry(znodes, layout);
        this.coordination = new CoordinationRegistry(znodes, layout);
    }

    public static ZkRegistry of(CuratorFramework client) {
        return new ZkRegistry(client, ZkLayout.root());
    }

    public ZkLayout layout() {
        return layout;
    }

    public Znodes znodes() {
        return znodes;
    }

    public BrokerRegistry brokers() {
        return brokers;
    }

    public TopicRegistry topics() {
        return topics;
    }

    public MemberRegistry members() {
        return members;
    }

    public OwnerRegistry owners() {
        return owners;
    }

    public OffsetRegistry offsets() {
        return offsets;
    }

    /** What zkgroups members publish that they cannot do now (Kafka unreachable, offsets unreadable). */
    public MemberAlarmRegistry memberAlarms() {
        return new MemberAlarmRegistry(znodes, layout);
    }

    /** Members, owners and offsets of many groups in a few pipelined rounds (monitoring). */
    public GroupScan scan() {
        return new GroupScan(znodes, layout);
    }

    /** The group's coordination decision and the owner znodes members hold while Kafka coordinates them. */
    public CoordinationRegistry coordination() {
        return coordination;
    }
}
