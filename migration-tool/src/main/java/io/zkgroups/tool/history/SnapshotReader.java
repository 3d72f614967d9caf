package io.zkgroups.tool.history;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupSample;
import io.zkgroups.tool.lag.GroupSampler;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@link GroupSnapshot}: the group's offsets, owners, phase and log ends as {@link GroupSampler} reads them,
 * plus the ctimes of its registrations and owner znodes (when each member joined, when each partition was claimed),
 * read in pipelined rounds (children, then data) whatever their number.
 */
public final class SnapshotReader {

    private final GroupSampler sampler;
    private final Znodes znodes;
    private final ZkLayout layout;

    public SnapshotReader(Clients clients, Duration staleAfter) {
        this.sampler = new GroupSampler(clients, staleAfter);
        this.znodes = clients.zk().registry().znodes();
        this.layout = clients.zk().paths();
    }

    public GroupSnapshot read(String group) {
        GroupSampler.Sampling sampling = sampler.sample(List.of(group));
        GroupSample sample = sampling.groups().get(group);
        Map<String, Instant> members = new HashMap<>();
        String ids = layout.memberIds(group);
        znodes.readAll(znodes.children(ids).stream().map(id -> ids + "/" + id).toList(), null)
                .forEach((path, data) -> members.put(path.substring(ids.length() + 1), ctime(data)));
        Map<TopicAndPartition, GroupSnapshot.Owned> owners = new HashMap<>();
        List<String> topicDirs = znodes.children(layout.owners(group)).stream().map(t -> layout.owners(group, t)).toList();
        List<String> ownerPaths = new java.util.ArrayList<>();
        znodes.childrenAll(topicDirs).forEach((dir, partitions) -> partitions.forEach(p -> ownerPaths.add(dir + "/" + p)));
        znodes.readAll(ownerPaths, null).forEach((path, data) -> {
            String dir = path.substring(0, path.lastIndexOf('/'));
            java.util.OptionalInt partition = ZkLayout.parsePartition(path.substring(path.lastIndexOf('/') + 1));
            if (partition.isPresent()) {
                owners.put(new TopicAndPartition(dir.substring(dir.lastIndexOf('/') + 1), partition.getAsInt()),
                        new GroupSnapshot.Owned(new String(data.bytes(), StandardCharsets.UTF_8), ctime(data)));
            }
        });
        Map<TopicAndPartition, Long> offsets = new HashMap<>();
        Map<TopicAndPartition, GroupSnapshot.Committed> zk = new HashMap<>();
        Map<TopicAndPartition, Long> logEnds = new HashMap<>();
        String phase = null;
        if (sample != null) {
            phase = sample.phase().phase().label();
            for (GroupSample.PartitionRead r : sample.partitions()) {
                Long offset = r.offset(sample.phase().phase());
                if (offset != null) {
                    offsets.put(r.partition(), offset);
                }
                if (r.zookeeperOffset() != null && r.zookeeperMtime() != null) {
                    zk.put(r.partition(), new GroupSnapshot.Committed(r.zookeeperOffset(), r.zookeeperMtime()));
                }
                if (r.logEnd() != null) {
                    logEnds.put(r.partition(), r.logEnd());
                }
            }
        }
        return new GroupSnapshot(group, sampling.at(), phase, members, owners, offsets, zk, logEnds);
    }

    private static Instant ctime(Znodes.Data d) {
        return Instant.ofEpochMilli(d.stat().getCtime());
    }
}
