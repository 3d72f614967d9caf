package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.SessionOwnership;
import io.zkgroups.rebalancer.restart.HandoverFile;
import io.zkgroups.rebalancer.restart.HandoverIntake;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.rebalancer.restart.HandoverStep;
import io.zkgroups.rebalancer.restart.HandoverTicket;
import io.zkgroups.rebalancer.restart.HandoverZooKeeperFactory;
import io.zkgroups.rebalancer.restart.SessionCredentials;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A consumer's part in restarts by session hand-over (docs/restarts.md): at start, the ticket its predecessor left in
 * {@code zkgroups.restart.handover.file} and the ownership to adopt if the session could be resumed; at close, the
 * hand-over itself — fence and commit, stop without leaving, drop the connection keeping the session, write the ticket.
 */
final class RestartHandover {

    private static final Logger LOG = LoggerFactory.getLogger(RestartHandover.class);

    private final ZkConsumerConfig config;
    private final HandoverObserver observer;
    private final Optional<HandoverTicket> ticket;
    private final HandoverZooKeeperFactory handles;

    private RestartHandover(ZkConsumerConfig config, HandoverObserver observer, Optional<HandoverTicket> ticket) {
        this.config = config;
        this.observer = observer;
        this.ticket = ticket;
        this.handles = new HandoverZooKeeperFactory(ticket.map(HandoverTicket::session));
    }

    /**
     * Takes the predecessor's ticket, if the hand-over file is configured and holds one this consumer may resume; with
     * {@code zkgroups.restart.handover.await.ms}, first waits that long for one to be written.
     */
    static RestartHandover atStart(ZkConsumerConfig config, HandoverObserver observer, Runnable beforeWaiting) {
        Optional<HandoverTicket> ticket = config.restartHandoverFile().map(HandoverFile::new).flatMap(file -> {
            awaitTicket(file, config, observer, beforeWaiting);
            return HandoverIntake.take(file, config.groupId(), config.consumerIdOverride(), config.restartGrace(),
                    Instant.now(), observer);
        });
        return new RestartHandover(config, observer, ticket);
    }

    /**
     * A successor started before its predecessor stops: nothing is connected or registered while it waits. It has
     * time to spare, so it runs {@code beforeWaiting} first (it builds its fetch client: see {@code EarlyFetchClient}).
     */
    private static void awaitTicket(HandoverFile file, ZkConsumerConfig config, HandoverObserver observer,
                                    Runnable beforeWaiting) {
        Duration await = config.restartAwait();
        if (await.isZero() || Files.exists(file.path())) {
            return;
        }
        try {
            beforeWaiting.run();
        } catch (RuntimeException e) {
            LOG.debug("building the fetch client while waiting for a ticket failed (the real start will say why): {}",
                    e.toString());
        }
        HandoverObserver.tell(observer, HandoverStep.AWAITING_TICKET);
        LOG.info("waiting up to {} ms for a ticket in {}", await.toMillis(), file.path());
        try {
            if (!file.awaitTicket(await)) {
                LOG.info("no ticket in {} after {} ms", file.path(), await.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted waiting for a ticket in {}: taking one only if it is already there", file.path());
        } catch (UncheckedIOException e) {
            // the wait is an optimisation: without it the consumer still takes a ticket that is there, or joins anew
            LOG.warn("{}: not waiting for a ticket", e.getMessage());
        }
    }

    /** Where the client's ZooKeeper handles come from. */
    HandoverZooKeeperFactory handles() {
        return handles;
    }

    /** The consumer id of the predecessor whose session this consumer resumes (it registered under it). */
    Optional<ConsumerId> consumerId() {
        return ticket.map(HandoverTicket::consumerId);
    }

    /** Whether close() hands the session over (the hand-over file is configured) rather than leaving the group. */
    boolean onClose() {
        return config.restartHandoverFile().isPresent();
    }

    /**
     * What to adopt now that {@code client} is connected: the predecessor's ownership if the client is in its session;
     * empty if there was no ticket or the session had ended (the client then has a new one, and the member joins anew).
     */
    Optional<SessionOwnership> resumed(CuratorFramework client) {
        if (!ticket.isPresent()) {
            return Optional.empty();
        }
        long session;
        try {
            session = client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            session = 0;
        }
        SessionCredentials handedOver = ticket.get().session();
        if (session != handedOver.sessionId()) {
            LOG.warn("{} had ended: joining as a new member in session 0x{}", handedOver, Long.toHexString(session));
            return Optional.empty();
        }
        HandoverObserver.tell(observer, HandoverStep.SESSION_RESUMED);
        return Optional.of(new SessionOwnership(session, ticket.get().owned()));
    }

    /**
     * Hands this consumer's session to its next process: the coordinator fences, commits and stops the member without
     * leaving, then the connection is dropped (the session lives on) and the ticket written. Returns false, having done
     * nothing to the connection, if there is nothing to hand over (not subscribed, or the session is not alive): the
     * caller then closes the session as usual.
     */
    boolean handOver(GroupCoordinator coordinator, ConsumerId consumerId, Deadline deadline) {
        Logger log = new LogContext("[" + consumerId + "] ").logger(RestartHandover.class);
        Subscription subscription = coordinator.registeredSubscription();
        Optional<SessionOwnership> owned = coordinator.handOver(deadline);
        HandoverObserver.tell(observer, HandoverStep.FENCED);
        if (!owned.isPresent()) {
            log.info("nothing to hand over (not subscribed, or no live session): closing the session");
            return false;
        }
        SessionCredentials session = handles.detach();
        HandoverObserver.tell(observer, HandoverStep.DISCONNECTED);
        if (session.sessionId() != owned.get().session()) {
            log.warn("the session changed during the hand-over ({} instead of 0x{}): no ticket written", session, Long.toHexString(owned.get().session()));
            return true;
        }
        HandoverFile file = new HandoverFile(config.restartHandoverFile().get());
        Instant now = Instant.now();
        String registration = new String(MemberRegistrationCodec.encode(
                MemberRegistration.of(subscription, now.toEpochMilli())), StandardCharsets.UTF_8);
        try {
            file.write(new HandoverTicket(session, config.groupId(), consumerId, registration, owned.get().owned(), now));
        } catch (RuntimeException e) {
            log.error("could not write the hand-over ({}): the group takes over when {} expires", e.getMessage(), session);
            return true;
        }
        HandoverObserver.tell(observer, HandoverStep.FILE_WRITTEN);
        log.info("handed {} over through {}: owned {}", session, file.path(), owned.get().owned().keySet());
        return true;
    }
}
