package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test fixtures written the way docs/compatibility.md#assignment-vectors writes its vectors. */
final class Groups {

    private final String prefix;
    private final Map<ConsumerId, Map<String, Integer>> subscriptions = new LinkedHashMap<>();
    private final Map<String, Integer> partitionCounts = new LinkedHashMap<>();

    private Groups(String prefix) {
        this.prefix = prefix;
    }

    /** A group whose consumer ids all start with {@code prefix}, e.g. {@code "g1range_"}. */
    static Groups group(String prefix) {
        return new Groups(prefix);
    }

    /** A member subscribing to {@code topicsAndStreams}: topic, count, topic, count, ... */
    Groups member(String name, Object... topicsAndStreams) {
        Map<String, Integer> subscription = new LinkedHashMap<>();
        for (int i = 0; i < topicsAndStreams.length; i += 2) {
            subscription.put((String) topicsAndStreams[i], (Integer) topicsAndStreams[i + 1]);
        }
        subscriptions.put(new ConsumerId(prefix + name), subscription);
        return this;
    }

    Groups topic(String topic, int partitions) {
        partitionCounts.put(topic, partitions);
        return this;
    }

    GroupSnapshot snapshot() {
        return new GroupSnapshot(subscriptions, partitionCounts);
    }

    ThreadId thread(String name, int n) {
        return new ConsumerId(prefix + name).thread(n);
    }

    /**
     * Parses rows in the vectors' format, {@code "T1-0 c1-0   T1-1 c1-0 ..."}: topic-partition, then the owner
     * thread without the group prefix. Both split at their last {@code '-'}.
     */
    Assignment rows(String rows) {
        String[] tokens = rows.trim().split("\\s+");
        Map<TopicAndPartition, ThreadId> owners = new LinkedHashMap<>();
        for (int i = 0; i < tokens.length; i += 2) {
            String partition = tokens[i];
            String owner = tokens[i + 1];
            int dash = partition.lastIndexOf('-');
            int ownerDash = owner.lastIndexOf('-');
            TopicAndPartition key = new TopicAndPartition(partition.substring(0, dash),
                    Integer.parseInt(partition.substring(dash + 1)));
            ThreadId value = thread(owner.substring(0, ownerDash), Integer.parseInt(owner.substring(ownerDash + 1)));
            if (owners.put(key, value) != null) {
                throw new IllegalArgumentException("row for " + key + " listed twice");
            }
        }
        return new Assignment(owners);
    }
}
