package io.zkgroups.rebalancer.restart;

import io.zkgroups.registry.model.ConsumerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The successor's side of a hand-over, before it connects: takes the ticket from the hand-over file (deleting it, so
 * no second process resumes the same session) and decides whether to resume the session it names.
 */
public final class HandoverIntake {

    private static final Logger LOG = LoggerFactory.getLogger(HandoverIntake.class);

    private HandoverIntake() {
    }

    /**
     * The ticket in {@code file} if this consumer ({@code group}, and {@code consumerIdOverride} if it has one) may
     * resume its session at {@code now}; empty if there is none, or it is not for this consumer, or its grace has
     * passed (the reason is logged). A file that is not a ticket is reported and deleted: the consumer starts anew.
     */
    public static Optional<HandoverTicket> take(HandoverFile file, String group, Optional<String> consumerIdOverride,
                                                Duration grace, Instant now, HandoverObserver observer) {
        Optional<HandoverTicket> taken;
        try {
            taken = file.take();
        } catch (IllegalArgumentException e) {
            LOG.warn("{}: starting as a new member", e.getMessage());
            return Optional.empty();
        }
        if (!taken.isPresent()) {
            LOG.info("no session to resume in {}: starting as a new member", file.path());
            return Optional.empty();
        }
        HandoverObserver.tell(observer, HandoverStep.FILE_TAKEN);
        HandoverTicket ticket = taken.get();
        Optional<String> refusal = refusal(ticket, group, consumerIdOverride, grace, now);
        if (refusal.isPresent()) {
            LOG.warn("not resuming the {} from {}: {}; starting as a new member", ticket, file.path(), refusal.get());
            return Optional.empty();
        }
        LOG.info("resuming the {} from {}", ticket, file.path());
        return taken;
    }

    /** Why {@code ticket} may not be resumed by this consumer at {@code now}, if it may not. */
    static Optional<String> refusal(HandoverTicket ticket, String group, Optional<String> consumerIdOverride,
                                    Duration grace, Instant now) {
        if (!ticket.group().equals(group)) {
            return Optional.of("it is of group " + ticket.group() + ", this consumer is in group " + group);
        }
        if (consumerIdOverride.isPresent()
                && !ConsumerId.ofOverride(group, consumerIdOverride.get()).equals(ticket.consumerId())) {
            return Optional.of("it is of consumer " + ticket.consumerId() + ", this one has consumer.id "
                    + consumerIdOverride.get());
        }
        if (!ticket.resumableAt(now, grace)) {
            return Optional.of("it was released at " + ticket.releasedAt() + ", more than zkgroups.restart.grace.ms ("
                    + grace.toMillis() + " ms) before " + now);
        }
        return Optional.empty();
    }
}
