package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.assign.StickyCapability;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * How a {@link GroupMember} behaves.
 */
public final class GroupMemberConfig {
    private final String group;
    private final ConsumerId consumerId;
    private final Subscription subscription;
    private final String assignmentStrategy;
    private final boolean excludeInternalTopics;
    private final Duration debounce;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final int maxGroupSize;
    private final double leaseMargin;
    private final boolean advertiseCapabilities;

    public GroupMemberConfig(String group, ConsumerId consumerId, Subscription subscription, String assignmentStrategy,
                             boolean excludeInternalTopics, Duration debounce, Duration initialBackoff,
                             Duration maxBackoff, int maxGroupSize, double leaseMargin, boolean advertiseCapabilities) {
        ZkNames.requireValid("group id", group);
        Objects.requireNonNull(consumerId, "consumerId cannot be null");
        Objects.requireNonNull(subscription, "subscription cannot be null");
        Objects.requireNonNull(assignmentStrategy, "assignmentStrategy cannot be null");
        requireNonNegative("debounce", debounce);
        requireNonNegative("initialBackoff", initialBackoff);
        requireNonNegative("maxBackoff", maxBackoff);
        if (maxGroupSize < 0) {
            throw new IllegalArgumentException("maxGroupSize must be >= 0, got " + maxGroupSize);
        }
        if (leaseMargin <= 0 || leaseMargin >= 1) {
            throw new IllegalArgumentException("leaseMargin must be between 0 and 1, got " + leaseMargin);
        }
        this.group = group;
        this.consumerId = consumerId;
        this.subscription = subscription;
        this.assignmentStrategy = assignmentStrategy;
        this.excludeInternalTopics = excludeInternalTopics;
        this.debounce = debounce;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.maxGroupSize = maxGroupSize;
        this.leaseMargin = leaseMargin;
        this.advertiseCapabilities = advertiseCapabilities;
    }

    /**
     * Defaults: range, internal topics excluded, no debounce (an event is acted on at once: on the product bench a 5 ms
     * one cost joins, leaves and bursts time and saved no requests), 50 ms → 2 s backoff, no size cap.
     */
    public static GroupMemberConfig of(String group, ConsumerId consumerId, Subscription subscription) {
        return new GroupMemberConfig(group, consumerId, subscription, "range", true, Duration.ZERO,
                Duration.ofMillis(50), Duration.ofSeconds(2), 0, 0.25, false);
    }

    public GroupMemberConfig withAssignmentStrategy(String strategy) {
        return new GroupMemberConfig(group, consumerId, subscription, strategy, excludeInternalTopics, debounce,
                initialBackoff, maxBackoff, maxGroupSize, leaseMargin, advertiseCapabilities);
    }

    public GroupMemberConfig withMaxGroupSize(int size) {
        return new GroupMemberConfig(group, consumerId, subscription, assignmentStrategy, excludeInternalTopics,
                debounce, initialBackoff, maxBackoff, size, leaseMargin, advertiseCapabilities);
    }

    public GroupMemberConfig withBackoff(Duration initial, Duration max) {
        return new GroupMemberConfig(group, consumerId, subscription, assignmentStrategy, excludeInternalTopics,
                debounce, initial, max, maxGroupSize, leaseMargin, advertiseCapabilities);
    }

    public GroupMemberConfig withDebounce(Duration newDebounce) {
        return new GroupMemberConfig(group, consumerId, subscription, assignmentStrategy, excludeInternalTopics,
                newDebounce, initialBackoff, maxBackoff, maxGroupSize, leaseMargin, advertiseCapabilities);
    }

    public GroupMemberConfig withExcludeInternalTopics(boolean exclude) {
        return new GroupMemberConfig(group, consumerId, subscription, assignmentStrategy, exclude,
                debounce, initialBackoff, maxBackoff, maxGroupSize, leaseMargin, advertiseCapabilities);
    }

    public GroupMemberConfig withAdvertisedCapabilities(boolean advertise) {
        return new GroupMemberConfig(group, consumerId, subscription, assignmentStrategy, excludeInternalTopics,
                debounce, initialBackoff, maxBackoff, maxGroupSize, leaseMargin, advertise);
    }

    /** The capability key's content when advertised. */
    Map<String, String> capabilities() {
        boolean sticky = assignmentStrategy.equals(PartitionAssignor.STICKY);
        if (!advertiseCapabilities && !sticky) {
            return Collections.emptyMap();
        }
        Map<String, String> capabilities = new java.util.LinkedHashMap<>(); // a fixed key order: the same bytes every run
        capabilities.put("assignor", assignmentStrategy);
        if (sticky) {
            capabilities.put(StickyCapability.KEY, StickyCapability.VERSION);
        }
        capabilities.put("v", "1");
        return java.util.Collections.unmodifiableMap(capabilities);
    }

    private static void requireNonNegative(String name, Duration value) {
        Objects.requireNonNull(value, name + " cannot be null");
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + value);
        }
    }

    /** The group id. */
    public String group() {
        return group;
    }

    /** This member's consumer id (znode name under {@code /consumers/G/ids}). */
    public ConsumerId consumerId() {
        return consumerId;
    }

    /** What it consumes. */
    public Subscription subscription() {
        return subscription;
    }

    /**
     * {@code range} or {@code roundrobin}, as in 0.8.2.2, or {@code sticky} (which always advertises: the group is
     * sticky only while every member says so).
     */
    public String assignmentStrategy() {
        return assignmentStrategy;
    }

    /** Wildcards skip {@code __consumer_offsets}. */
    public boolean excludeInternalTopics() {
        return excludeInternalTopics;
    }

    /** How long events are gathered before an attempt runs. */
    public Duration debounce() {
        return debounce;
    }

    /** First wait after a failed attempt; doubles up to {@code maxBackoff}, with jitter. */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /** Cap of the wait between failed attempts (attempts never stop). */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /** Largest group this member joins (0 = unlimited); members beyond it in registration order are refused. */
    public int maxGroupSize() {
        return maxGroupSize;
    }

    /**
     * Part of the session timeout kept as a safety margin of the ownership lease: it must cover the server's ping
     * lag (half a tick) plus scheduling and network delays ({@link SessionLease}).
     */
    public double leaseMargin() {
        return leaseMargin;
    }

    /** Write the zkgroups capability key in the registration (off: byte-identical to 0.8.2.2). */
    public boolean advertiseCapabilities() {
        return advertiseCapabilities;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof GroupMemberConfig)) {
            return false;
        }
        GroupMemberConfig that = (GroupMemberConfig) other;
        return Objects.equals(group, that.group) && Objects.equals(consumerId, that.consumerId)
                && Objects.equals(subscription, that.subscription)
                && Objects.equals(assignmentStrategy, that.assignmentStrategy)
                && excludeInternalTopics == that.excludeInternalTopics && Objects.equals(debounce, that.debounce)
                && Objects.equals(initialBackoff, that.initialBackoff) && Objects.equals(maxBackoff, that.maxBackoff)
                && maxGroupSize == that.maxGroupSize && Double.compare(leaseMargin, that.leaseMargin) == 0
                && advertiseCapabilities == that.advertiseCapabilities;
    }

    @Override
    public int hashCode() {
        return Objects.hash(group, consumerId, subscription, assignmentStrategy, excludeInternalTopics, debounce,
                initialBackoff, maxBackoff, maxGroupSize, leaseMargin, advertiseCapabilities);
    }

    @Override
    public String toString() {
        return "GroupMemberConfig[group=" + group + ", consumerId=" + consumerId + ", subscription=" + subscription
                + ", assignmentStrategy=" + assignmentStrategy + ", excludeInternalTopics=" + excludeInternalTopics
                + ", debounce=" + debounce + ", initialBackoff=" + initialBackoff + ", maxBackoff=" + maxBackoff
                + ", maxGroupSize=" + maxGroupSize + ", leaseMargin=" + leaseMargin
                + ", advertiseCapabilities=" + advertiseCapabilities + "]";
    }
}
