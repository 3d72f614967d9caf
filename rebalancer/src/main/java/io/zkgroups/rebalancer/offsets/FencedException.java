package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A commit was refused because this member may no longer own what it commits: the ownership fence said so before
 * the write, or the store did (the owner znode was gone, the session had ended, the lease ran out). Nothing was
 * written. The message names the partitions and why.
 */
public final class FencedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient SortedMap<TopicAndPartition, String> refused;

    public FencedException(Map<TopicAndPartition, String> refused) {
        super("refused to commit offsets of partitions this member does not own now (another member's offsets must "
                + "not be overwritten): " + describe(refused));
        this.refused = new TreeMap<>(refused);
    }

    public FencedException(String message) {
        super(message);
        this.refused = new TreeMap<>();
    }

    /** Partition → why, when the fence refused them one by one; empty when a store refused the whole write. */
    public SortedMap<TopicAndPartition, String> refused() {
        return refused;
    }

    private static String describe(Map<TopicAndPartition, String> refused) {
        StringBuilder text = new StringBuilder();
        refused.forEach((tp, why) -> text.append(text.length() == 0 ? "" : "; ").append(tp.topic()).append('-').append(tp.partition()).append(": ").append(why));
        return text.toString();
    }
}
