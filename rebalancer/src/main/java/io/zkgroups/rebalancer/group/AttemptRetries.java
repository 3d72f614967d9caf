package io.zkgroups.rebalancer.group;

import org.slf4j.Logger;

import java.time.Duration;

/**
 * When a {@link ZkGroupMember}'s next attempt runs after one that did not end stable: capped exponential backoff with
 * jitter after failures, the longest backoff when the assignment cannot be computed or a dead member's session still
 * holds a claim, and a safety net while a claim waits for previous owners. Records each outcome and publishes the
 * member's health. Event loop only.
 */
final class AttemptRetries {

    private final Logger log;
    private final Duration maxBackoff;
    private final Backoff backoff;
    private final RebalanceRecord record;
    private final AttemptSchedule attempts;
    private final Runnable healthChanged;

    AttemptRetries(MemberContext member, RebalanceRecord record, AttemptSchedule attempts, Runnable healthChanged) {
        this.log = member.log();
        this.maxBackoff = member.config().maxBackoff();
        this.backoff = new Backoff(member.config().initialBackoff(), maxBackoff);
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
            log.debug("rebalance attempt {} waits, retrying in {} ms at the latest: {}", failures, delay.toMillis(), error);
        } else {
            log.info("rebalance attempt {} failed, retrying in {} ms: {}", failures,
                    delay.toMillis(), error);
        }
        healthChanged.run();
        attempts.within(delay);
    }
}
