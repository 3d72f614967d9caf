package io.zkgroups.tool.consume;

import io.zkgroups.tool.io.ZkGroups;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The group {@code consume} joins when none is named: {@code zkgroups-console-<random>}, removed from ZooKeeper
 * when the command ends, as 0.8's console consumer removed its {@code console-consumer-<random>} group. A group
 * the user named (with {@code --group} or {@code group.id} in {@code --consumer.config}) is never removed.
 */
public record ConsoleGroup(String id, boolean generated) {

    public static final String PREFIX = "zkgroups-console-";

    public static ConsoleGroup named(String id) {
        return new ConsoleGroup(id, false);
    }

    public static ConsoleGroup generate() {
        return new ConsoleGroup(PREFIX + ThreadLocalRandom.current().nextInt(100_000, 1_000_000), true);
    }

    /**
     * Creates the group's {@code ids} directory (as the member would, with the same credentials and ACLs) before the
     * consumer starts: without the right to, the command fails at once, naming {@code --zk-auth} (exit 5), where the
     * member would retry its registration forever.
     */
    public void prepare(ZkGroups zk) {
        zk.registry().znodes().ensurePersistent(zk.paths().memberIds(id));
    }

    /**
     * Deletes {@code /consumers/<id>} if this group was generated; call after the consumer has left.
     *
     * @return the number of znodes deleted
     */
    public int removeIfGenerated(ZkGroups zk) {
        if (!generated || !zk.exists(id)) {
            return 0;
        }
        return zk.delete(id, zk.subtree(zk.paths().group(id)));
    }
}
