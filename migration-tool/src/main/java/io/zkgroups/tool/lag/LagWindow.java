package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The last {@code size} samples of every partition of every group, and their evaluation. Also remembers since when
 * each partition's offset has had its current value: that is the commit time of a Kafka offset as far as the tool can
 * know it (the Admin API does not say when an offset was committed), so a stopped Kafka-offset group is recognised
 * once it has been watched for longer than the idle time. Not thread-safe.
 */
public final class LagWindow {

    private record Key(String group, TopicAndPartition partition) {
    }

    private record Seen(Long offset, Instant since) {
    }

    private final int size;
    private final Map<Key, Deque<PartitionSample>> windows = new HashMap<>();
    private final Map<Key, Seen> seen = new HashMap<>();

    public LagWindow(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a window holds at least one sample, got " + size);
        }
        this.size = size;
    }

    /** Adds {@code sample} to its partitions' windows; partitions of the group it no longer has are forgotten. */
    public void add(GroupSample sample) {
        Set<Key> present = new HashSet<>();
        MigrationPhase phase = sample.phase().phase();
        for (GroupSample.PartitionRead read : sample.partitions()) {
            Key key = new Key(sample.group(), read.partition());
            present.add(key);
            PartitionSample s = read.sample(sample.at(), phase);
            if (s == null) {
                continue; // log offsets unknown (Kafka did not answer): nothing to judge by
            }
            Seen before = seen.get(key);
            if (before == null || !Objects.equals(before.offset(), s.offset())) {
                before = new Seen(s.offset(), sample.at());
                seen.put(key, before);
            }
            if (s.committedAt() == null && s.offset() != null) {
                s = new PartitionSample(s.at(), s.offset(), before.since(), s.logStart(), s.logEnd(), s.owned());
            }
            Deque<PartitionSample> window = windows.computeIfAbsent(key, k -> new ArrayDeque<>());
            window.addLast(s);
            while (window.size() > size) {
                window.removeFirst();
            }
        }
        windows.keySet().removeIf(k -> k.group().equals(sample.group()) && !present.contains(k));
        seen.keySet().removeIf(k -> k.group().equals(sample.group()) && !present.contains(k));
    }

    /** Forgets every group not in {@code groups}. */
    public void retainGroups(Set<String> groups) {
        windows.keySet().removeIf(k -> !groups.contains(k.group()));
        seen.keySet().removeIf(k -> !groups.contains(k.group()));
    }

    /** The group as of {@code latest}, each partition judged over its window. */
    public GroupLag evaluate(GroupSample latest, Duration idleAfter) {
        MigrationPhase phase = latest.phase().phase();
        List<GroupLag.PartitionLag> rows = new ArrayList<>();
        List<LagStatus> statuses = new ArrayList<>();
        long total = 0;
        Double maxSeconds = null;
        for (GroupSample.PartitionRead read : latest.partitions()) {
            Deque<PartitionSample> window = windows.get(new Key(latest.group(), read.partition()));
            Long offset = read.offset(phase);
            LagEvaluator.Verdict verdict = null;
            if (offset != null && window != null && !window.isEmpty() && window.getLast().offset() != null
                    && window.getLast().at().equals(latest.at())) {
                verdict = LagEvaluator.evaluate(List.copyOf(window), idleAfter);
                statuses.add(verdict.status());
            }
            Long lag = GroupSample.PartitionRead.lag(offset, read.logEnd());
            total += lag == null ? 0 : lag;
            TimeLag timeLag = TimeLag.of(offset, read.logEnd(), read.written(), latest.at());
            if (timeLag.seconds() != null) {
                maxSeconds = maxSeconds == null ? timeLag.seconds() : Math.max(maxSeconds, timeLag.seconds());
            }
            Instant committedAt = window != null && !window.isEmpty() && window.getLast().at().equals(latest.at())
                    ? window.getLast().committedAt() : null;
            rows.add(new GroupLag.PartitionLag(read.partition().topic(), read.partition().partition(), read.zookeeperOffset(),
                    read.kafkaOffset(), offset, read.logStart(), read.logEnd(), lag,
                    GroupSample.PartitionRead.lag(read.zookeeperOffset(), read.logEnd()),
                    GroupSample.PartitionRead.lag(read.kafkaOffset(), read.logEnd()), read.owner(), read.ownerLive(),
                    verdict == null ? null : verdict.status(), verdict == null ? null : verdict.reason(),
                    timeLag.seconds(), timeLag.source(), TimeLag.secondsBetween(committedAt, latest.at())));
        }
        int samples = latest.partitions().stream()
                .map(r -> windows.get(new Key(latest.group(), r.partition())))
                .filter(Objects::nonNull).mapToInt(Deque::size).max().orElse(0);
        return new GroupLag(latest.group(), LagStatus.worst(statuses), latest.phase().phase().label(),
                latest.phase().evidence(), latest.members(), latest.kafkaQueried() ? total : null, samples, rows,
                latest.unreadable().stream().map(Object::toString).toList(), maxSeconds, latest.alarmed(),
                latest.coordinator());
    }
}
