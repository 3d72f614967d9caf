package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * When a {@link ZkGroupMember}'s next attempt runs after one that did not end stable: capped exponential backoff with
 * jitter after failures, the longest backoff when the assignment cannot be computed or a dead member's session still
 * holds a claim, and a safety net while a claim waits for previous owners. Records each outcome and publishes the
 * member's health. Event loop only.
 */
final class AttemptRetries {

    private static final Logger LOG = LoggerFactory.getLogger(ZkGroupMember.class); // the member's log

    private final ConsumerId me;
    private final Duration maxBackoff;
    private final Backoff backoff;
    private final RebalanceRecord record;
    private final AttemptSchedule attempts;
    private final Runnable healthChanged;

    AttemptRetries(GroupMemberConfig config, RebalanceRecord record, AttemptSchedule attempts, Runnable healthChanged) {
        this.me = config.consumerId();
        this.maxBackoff = config.maxBackoff();
        this.backoff = new Backoff(config.initialBackoff(), config.maxBackoff());
        this.record = record;
        this.attempts = attempts;
        this.healthChanged = healthChanged;
    }

    /** The attempt failed: another after the backoff its failures in a row call for. */
    void failed(String error) {
        failed(error, null, false);
    }

    /** The assignment cannot be computed (bad data others wrote): another after the longest backoff. */
    void cannotAssign(String error) {
        failed("the assignment cannot be computed: " + error, maxBackoff, false);
    }

    /** A registered previous owner is releasing right now: its watch wakes the claim; this is the safety net. */
    void ownerReleasing(String reason) {
        failed(reason, null, true);
    }

    /** The previous owner is a dead member whose session has not ended yet: waiting, not failing (no escalation). */
    void ownerGone(String reason) {
        record.error(reason);
        healthChanged.run();
        attempts.within(maxBackoff);
    }

    /** Some previous owners still hold the claim that waited: keep waiting, with the safety net. */
    void keepWaiting() {
        attempts.within(backoff.delay(Math.max(1, record.failures())));
    }

    /** The shortest backoff: for a read that follows an attempt and failed. */
    Duration first() {
        return backoff.delay(1);
    }

    /** {@code routine}: part of every handover (a previous owner still releasing), logged at debug level only. */
    private void failed(String error, Duration fixedDelay, boolean routine) {
        int failures = record.failed(error);
        Duration delay = fixedDelay != null ? fixedDelay : backoff.delay(failures);
        if (routine) {
            LOG.debug("[{}] rebalance attempt {} waits, retrying in {} ms at the latest: {}", me, failures, delay.toMillis(), error);
        } else {
            LOG.info("[{}] rebalance attempt {} failed, retrying in {} ms: {}", me, failures,
                    delay.toMillis(), error);
        }
        healthChanged.run();
        attempts.within(delay);
    }
}
