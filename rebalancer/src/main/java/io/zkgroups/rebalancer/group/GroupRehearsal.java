package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.store.RehearsalSpace;
import io.zkgroups.registry.store.Znodes;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A fresh member's first join, rehearsed in a scratch group before it joins its real one ({@link RehearsalSpace}): the
 * member joins alone and claims everything; a made-up partner on a session of its own joins, so the member revokes and
 * releases half while the partner waits for it and claims; the member leaves, and the partner claims the rest and
 * leaves. Every step of a rebalance runs once, in both roles, on the member's own session, topics and strategy.
 * <p>
 * Why: a fresh JVM runs all of this for the first time in its first rebalance — interpreted, loading and linking as it
 * goes (Curator's transaction builders, the claim and release paths, the previous-owner watch, hundreds of lambdas and
 * record methods) — while the whole group waits for it. Rehearsed, the real join runs code that has run before: at
 * 10 × 100 the group's join took about half as long (docs/benchmarks.md). The price falls on the member's own start:
 * a few hundred milliseconds and some twenty ZooKeeper requests, before anyone waits for it.
 * <p>
 * It is only a rehearsal: whatever goes wrong (a refusal, no second session, the {@link #BUDGET} spent) ends it
 * quietly, and the real join goes on as it would have without it.
 */
final class GroupRehearsal {

    private static final Logger LOG = LoggerFactory.getLogger(GroupRehearsal.class);

    /** The whole rehearsal's time limit. */
    static final Duration BUDGET = Duration.ofSeconds(5);
    /** Longest debounce a rehearsal waits: the member's own, if shorter (it is there to be run, not to gather). */
    private static final Duration MAX_DEBOUNCE = Duration.ofMillis(5);
    private static final String PARTNER = "zkgroups-rehearsal-partner";
    private static final int GIVE_UP_AFTER_FAILURES = 3;
    /** Longest wait for other members' rehearsals after this one ({@link #joinTogether}). */
    static final Duration JOIN_TOGETHER = Duration.ofMillis(1500);

    private final CuratorFramework client;
    private final Supplier<CuratorFramework> partnerSessions;
    private final ZkLayout layout;
    private final GroupMemberConfig config;
    private final TopicMetadata topics;
    private volatile boolean cancelled;
    private volatile CountDownLatch waiting;

    /**
     * @param partnerSessions a started client on a session of its own for the partner (closed after), per call
     */
    GroupRehearsal(CuratorFramework client, Supplier<CuratorFramework> partnerSessions, ZkLayout layout,
                   GroupMemberConfig config, TopicMetadata topics) {
        this.client = client;
        this.partnerSessions = partnerSessions;
        this.layout = layout;
        this.config = config;
        this.topics = topics;
    }

    /** Ends a running rehearsal at its next step (the member is closing). */
    void cancel() {
        cancelled = true;
        CountDownLatch latch = waiting;
        if (latch != null) {
            latch.countDown();
        }
    }

    /** Runs it; true if it ran to the end. */
    boolean run() {
        long started = System.nanoTime();
        long deadline = started + BUDGET.toNanos();
        RehearsalSpace space = null;
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            space = RehearsalSpace.create(new Znodes(client), layout, config.group());
            TopicMetadata fixed = FixedTopicMetadata.of(topics, config.subscription(), config.excludeInternalTopics());
            GroupMember first = member(client, space.layout(), rehearsalConfig(config.consumerId()), fixed);
            opened.add(first);
            first.start();
            await(first, 1, deadline);
            CuratorFramework partnerClient = partnerSessions.get();
            opened.add(0, () -> closeInBackground(partnerClient));
            GroupMember partner = member(partnerClient, space.layout(),
                    rehearsalConfig(ConsumerId.ofOverride(config.group(), PARTNER)), fixed);
            opened.add(0, partner);
            partner.start();
            await(partner, 1, deadline);
            await(first, 2, deadline);
            first.close();
            await(partner, 2, deadline);
            partner.close();
            LOG.info("[{}] rehearsed the first join in a scratch group in {} ms", config.consumerId(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            return true;
        } catch (RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.info("[{}] rehearsing the first join stopped after {} ms ({}); joining without it", config.consumerId(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), e.getMessage() == null ? e : e.getMessage());
            return false;
        } finally {
            opened.forEach(GroupRehearsal::closeQuietly);
            if (space != null) {
                try {
                    space.delete();
                    joinTogether(space);
                } catch (RuntimeException e) {
                    LOG.info("[{}] could not delete {} ({}); the next rehearsal in the group will", config.consumerId(),
                            space.path(), e.getMessage());
                }
            }
        }
    }

    /**
     * Members of the group that are rehearsing too (a deploy of several fresh processes) are waited for, up to
     * {@link #JOIN_TOGETHER}, so that they register together and the group rebalances once rather than once per member
     * (what Kafka's {@code group.initial.rebalance.delay.ms} is for). A space older than {@link #BUDGET} is no rehearsal
     * any more.
     */
    private void joinTogether(RehearsalSpace space) {
        if (cancelled) {
            return;
        }
        long started = System.nanoTime();
        try {
            boolean together = space.awaitOthers(BUDGET, JOIN_TOGETHER);
            LOG.debug("[{}] {} other rehearsals in the group after {} ms", config.consumerId(),
                    together ? "no" : "still", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private GroupMemberConfig rehearsalConfig(ConsumerId id) {
        Duration debounce = config.debounce().compareTo(MAX_DEBOUNCE) > 0 ? MAX_DEBOUNCE : config.debounce();
        return config.withConsumerId(id).withDebounce(debounce).withMaxGroupSize(0); // no cap: the partner must join
    }

    private static GroupMember member(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                                      TopicMetadata topics) {
        return new GroupMember(client, layout, config, topics, MembershipListener.NONE, Level.DEBUG);
    }

    /** Waits until {@code member} is stable in generation {@code generation} or later. */
    private void await(GroupMember member, long generation, long deadline) throws InterruptedException {
        Predicate<MemberHealth> done = h -> h.isStable() && h.generation() >= generation;
        // a refusal or attempts that keep failing end it (one that waits for a previous owner counts as failed once)
        Predicate<MemberHealth> over = h -> done.test(h) || h.state() == MemberState.REFUSED
                || h.state() == MemberState.CLOSED || h.failedAttempts() >= GIVE_UP_AFTER_FAILURES;
        CountDownLatch latch = new CountDownLatch(1);
        Consumer<MemberHealth> listener = h -> {
            if (over.test(h)) {
                latch.countDown();
            }
        };
        waiting = latch;
        member.addHealthListener(listener);
        try {
            if (cancelled) {
                throw new IllegalStateException("the member is closing");
            }
            if (!over.test(member.health())) {
                latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            if (cancelled) {
                throw new IllegalStateException("the member is closing");
            }
            MemberHealth health = member.health();
            if (!done.test(health)) {
                throw new IllegalStateException(member.consumerId() + " is " + health.state() + " in generation "
                        + health.generation() + health.lastError().map(e -> ": " + e).orElse(" after " + BUDGET.toMillis()
                        + " ms"));
            }
        } finally {
            member.removeHealthListener(listener);
            waiting = null;
        }
    }

    /**
     * A partner may come from any client factory: a plain ZooKeeper handle's close waits ~100 ms for its I/O thread
     * (the consumer's handles do not, see DetachableZooKeeper), and nothing here needs to wait for that.
     */
    private static void closeInBackground(CuratorFramework partnerClient) {
        Thread closer = new Thread(partnerClient::close, "zkgroups-rehearsal-close");
        closer.setDaemon(true);
        closer.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("closing a rehearsal member: {}", e.toString());
        }
    }

    /** The partition counts read once, without a watch: the scratch group needs no news of topics. */
    record FixedTopicMetadata(Map<String, Integer> counts, List<String> all) implements TopicMetadata {

        static FixedTopicMetadata of(TopicMetadata source, io.zkgroups.registry.model.Subscription subscription,
                                     boolean excludeInternal) {
            List<String> all = subscription instanceof io.zkgroups.registry.model.Subscription.Wildcard
                    ? source.topics(null) : List.of();
            return new FixedTopicMetadata(source.partitionCounts(
                    subscription.topicStreams(all, excludeInternal).keySet(), null), all);
        }

        @Override
        public Map<String, Integer> partitionCounts(java.util.Collection<String> wanted, Runnable onChange) {
            Map<String, Integer> result = new java.util.TreeMap<>(counts);
            result.keySet().retainAll(wanted);
            return result;
        }

        @Override
        public List<String> topics(Runnable onChange) {
            return all;
        }
    }
}
