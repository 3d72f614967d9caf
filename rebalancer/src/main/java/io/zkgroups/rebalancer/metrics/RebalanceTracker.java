package io.zkgroups.rebalancer.metrics;

import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Turns the successive {@link MemberHealth} values a {@link io.zkgroups.rebalancer.group.ZkGroupMember} publishes into
 * rebalance events. Pure (the caller passes the time), not thread-safe.
 * <p>
 * A rebalance starts when the member joins, or leaves the stable state (a change in the group, a lost session), and
 * ends when it is stable again with a new generation; its latency is the time between. A session is counted as lost
 * each time the member enters {@link MemberState#SESSION_LOST}.
 */
final class RebalanceTracker {

    /** What one health change meant. */
    static final class Events {
        static final Events NONE = new Events(OptionalLong.empty(), false);

        private final OptionalLong rebalanceMillis;
        private final boolean sessionLost;

        Events(OptionalLong rebalanceMillis, boolean sessionLost) {
            this.rebalanceMillis = rebalanceMillis;
            this.sessionLost = sessionLost;
        }

        public OptionalLong rebalanceMillis() {
            return rebalanceMillis;
        }

        public boolean sessionLost() {
            return sessionLost;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Events)) {
                return false;
            }
            Events that = (Events) other;
            return Objects.equals(rebalanceMillis, that.rebalanceMillis) && sessionLost == that.sessionLost;
        }

        @Override
        public int hashCode() {
            return Objects.hash(rebalanceMillis, sessionLost);
        }

        @Override
        public String toString() {
            return "Events[rebalanceMillis=" + rebalanceMillis + ", sessionLost=" + sessionLost + "]";
        }
    }

    private static final long IDLE = -1;

    private long startedAtMillis = IDLE;
    private long generation;
    private MemberState state = MemberState.LATENT;

    /** A new member starts: its first rebalance runs from {@code nowMillis}. */
    void joining(long nowMillis) {
        startedAtMillis = nowMillis;
        generation = 0;
        state = MemberState.LATENT;
    }

    Events update(MemberHealth health, long nowMillis) {
        boolean lost = health.state() == MemberState.SESSION_LOST && state != MemberState.SESSION_LOST;
        if (startedAtMillis == IDLE
                && (health.state() == MemberState.REBALANCING || health.state() == MemberState.SESSION_LOST)) {
            startedAtMillis = nowMillis;
        }
        OptionalLong completed = OptionalLong.empty();
        if (health.generation() > generation) {
            generation = health.generation();
            if (startedAtMillis != IDLE) {
                completed = OptionalLong.of(Math.max(0, nowMillis - startedAtMillis));
            }
            startedAtMillis = IDLE;
        }
        if (health.state() == MemberState.CLOSED || health.state() == MemberState.REFUSED) {
            startedAtMillis = IDLE;
        }
        state = health.state();
        return !completed.isPresent() && !lost ? Events.NONE : new Events(completed, lost);
    }
}
