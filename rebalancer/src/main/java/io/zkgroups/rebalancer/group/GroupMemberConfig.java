package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.config.ConsumerKeys;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * How a {@link ZkGroupMember} behaves.
 */
public final class GroupMemberConfig {
    /** The first wait after a failed attempt, unless the cap is smaller. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);

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

    private GroupMemberConfig(Builder b) {
        ZkNames.requireValid("group id", b.group);
        Objects.requireNonNull(b.consumerId, "consumerId cannot be null");
        Objects.requireNonNull(b.subscription, "subscription cannot be null");
        Objects.requireNonNull(b.assignmentStrategy, "assignmentStrategy cannot be null");
        requireNonNegative("debounce", b.debounce);
        requireNonNegative("initialBackoff", b.initialBackoff);
        requireNonNegative("maxBackoff", b.maxBackoff);
        if (b.maxGroupSize < 0) {
            throw new IllegalArgumentException("maxGroupSize must be >= 0, got " + b.maxGroupSize);
        }
        if (b.leaseMargin <= 0 || b.leaseMargin >= 1) {
            throw new IllegalArgumentException("leaseMargin must be between 0 and 1, got " + b.leaseMargin);
        }
        this.group = b.group;
        this.consumerId = b.consumerId;
        this.subscription = b.subscription;
        this.assignmentStrategy = b.assignmentStrategy;
        this.excludeInternalTopics = b.excludeInternalTopics;
        this.debounce = b.debounce;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.maxGroupSize = b.maxGroupSize;
        this.leaseMargin = b.leaseMargin;
        this.advertiseCapabilities = b.advertiseCapabilities;
    }

    /**
     * A builder with the defaults of the consumer's keys ({@link ConsumerKeys}): range, internal topics excluded, no
     * debounce (an event is acted on at once: a debounce delays joins, leaves and bursts and saves no requests), a
     * backoff of min(50 ms, {@code rebalance.backoff.ms}) up to {@code rebalance.backoff.ms}, no
     * size cap, no advertised capabilities.
     */
    public static Builder builder(String group, ConsumerId consumerId, Subscription subscription) {
        return new Builder(group, consumerId, subscription);
    }

    /** The defaults of {@link #builder}. */
    public static GroupMemberConfig of(String group, ConsumerId consumerId, Subscription subscription) {
        return builder(group, consumerId, subscription).build();
    }

    /** A builder holding this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Shorthand for {@code toBuilder().assignmentStrategy(strategy).build()}. */
    public GroupMemberConfig withAssignmentStrategy(String strategy) {
        return toBuilder().assignmentStrategy(strategy).build();
    }

    /** Shorthand for {@code toBuilder().maxGroupSize(size).build()}. */
    public GroupMemberConfig withMaxGroupSize(int size) {
        return toBuilder().maxGroupSize(size).build();
    }

    /** Shorthand for {@code toBuilder().backoff(initial, max).build()}. */
    public GroupMemberConfig withBackoff(Duration initial, Duration max) {
        return toBuilder().backoff(initial, max).build();
    }

    /** Shorthand for {@code toBuilder().debounce(debounce).build()}. */
    public GroupMemberConfig withDebounce(Duration newDebounce) {
        return toBuilder().debounce(newDebounce).build();
    }

    /** Shorthand for {@code toBuilder().excludeInternalTopics(exclude).build()}. */
    public GroupMemberConfig withExcludeInternalTopics(boolean exclude) {
        return toBuilder().excludeInternalTopics(exclude).build();
    }

    /** Shorthand for {@code toBuilder().advertiseCapabilities(advertise).build()}. */
    public GroupMemberConfig withAdvertisedCapabilities(boolean advertise) {
        return toBuilder().advertiseCapabilities(advertise).build();
    }

    /** Builds a {@link GroupMemberConfig}; {@link #build()} checks the values. */
    public static final class Builder {
        private final String group;
        private final ConsumerId consumerId;
        private final Subscription subscription;
        private String assignmentStrategy = ConsumerKeys.defaultOf(ConsumerKeys.ASSIGNMENT_STRATEGY, String.class);
        private boolean excludeInternalTopics =
                ConsumerKeys.defaultOf(ConsumerKeys.EXCLUDE_INTERNAL_TOPICS, Boolean.class);
        private Duration debounce = millis(ConsumerKeys.REBALANCE_DEBOUNCE_MS);
        private Duration maxBackoff = millis(ConsumerKeys.REBALANCE_BACKOFF_MS);
        private Duration initialBackoff = firstBackoff(maxBackoff);
        private int maxGroupSize = ConsumerKeys.defaultOf(ConsumerKeys.MAX_GROUP_SIZE, Integer.class);
        private double leaseMargin = 0.25;
        private boolean advertiseCapabilities = ConsumerKeys.defaultOf(ConsumerKeys.ADVERTISE_CAPABILITIES, Boolean.class);

        private Builder(String group, ConsumerId consumerId, Subscription subscription) {
            this.group = group;
            this.consumerId = consumerId;
            this.subscription = subscription;
        }

        private Builder(GroupMemberConfig c) {
            this(c.group, c.consumerId, c.subscription);
            assignmentStrategy = c.assignmentStrategy;
            excludeInternalTopics = c.excludeInternalTopics;
            debounce = c.debounce;
            initialBackoff = c.initialBackoff;
            maxBackoff = c.maxBackoff;
            maxGroupSize = c.maxGroupSize;
            leaseMargin = c.leaseMargin;
            advertiseCapabilities = c.advertiseCapabilities;
        }

        private static Duration millis(String key) {
            return Duration.ofMillis(ConsumerKeys.defaultOf(key, Integer.class));
        }

        private static Duration firstBackoff(Duration max) {
            return max.compareTo(FIRST_BACKOFF) < 0 ? max : FIRST_BACKOFF;
        }

        public Builder assignmentStrategy(String strategy) {
            this.assignmentStrategy = strategy;
            return this;
        }

        public Builder excludeInternalTopics(boolean exclude) {
            this.excludeInternalTopics = exclude;
            return this;
        }

        public Builder debounce(Duration newDebounce) {
            this.debounce = newDebounce;
            return this;
        }

        public Builder backoff(Duration initial, Duration max) {
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /** Retries start at min(50 ms, {@code max}) and double up to {@code max}. */
        public Builder maxBackoff(Duration max) {
            return backoff(firstBackoff(Objects.requireNonNull(max, "maxBackoff cannot be null")), max);
        }

        public Builder maxGroupSize(int size) {
            this.maxGroupSize = size;
            return this;
        }

        public Builder leaseMargin(double margin) {
            this.leaseMargin = margin;
            return this;
        }

        public Builder advertiseCapabilities(boolean advertise) {
            this.advertiseCapabilities = advertise;
            return this;
        }

        /** @throws IllegalArgumentException naming the bad value */
        public GroupMemberConfig build() {
            return new GroupMemberConfig(this);
        }
    }

    /**
     * Whether a member on {@code strategy} writes the capability key: when {@code requested}, and always for a strategy
     * chosen through the advertised capabilities (sticky).
     */
    public static boolean advertises(String strategy, boolean requested) {
        AssignorType type = Assignors.find(strategy);
        return requested || (type != null && type.requiresCapabilities());
    }

    /** The capability key's content when advertised. */
    Map<String, String> capabilities() {
        if (!advertises(assignmentStrategy, advertiseCapabilities)) {
            return Collections.emptyMap();
        }
        AssignorType type = Assignors.find(assignmentStrategy);
        boolean required = type != null && type.requiresCapabilities();
        Map<String, String> capabilities = new java.util.LinkedHashMap<>(); // a fixed key order: the same bytes every run
        capabilities.put("assignor", assignmentStrategy);
        if (required) {
            capabilities.putAll(type.capabilities());
        }
        capabilities.put("cutover", "1"); // follows zkgroups migrate coordination in-process (docs/cutover.md)
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
     * A name registered in {@link Assignors}: {@code range} or {@code roundrobin}, as in 0.8.2.2, or {@code sticky}
     * (which always advertises: the group is sticky only while every member says so).
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
