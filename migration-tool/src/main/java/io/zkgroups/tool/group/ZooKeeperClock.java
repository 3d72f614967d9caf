package io.zkgroups.tool.group;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * ZooKeeper's clock as seen from this host, so that znode mtimes (stamped by the ZooKeeper server) are compared
 * with ZooKeeper's time and never with a local clock that may be skewed. Calibrated once: the offset between the
 * server's time of one write (the ctime of a znode the tool creates) and the local time halfway through that
 * write; the local clock then only measures elapsed time. Off by at most half the write's round trip.
 * <p>
 * When ZooKeeper's time cannot be learnt (e.g. an ACL refuses the write), it is the local clock and says why in
 * {@link #uncalibrated()}.
 */
public final class ZooKeeperClock extends Clock {

    private final Clock local;
    private final Duration offset;
    private final String uncalibrated;

    private ZooKeeperClock(Clock local, Duration offset, String uncalibrated) {
        this.local = local;
        this.offset = offset;
        this.uncalibrated = uncalibrated;
    }

    /**
     * @param local          this host's clock
     * @param timeOfAWrite   makes one write and returns the time ZooKeeper stamped it with
     */
    public static ZooKeeperClock calibrate(Clock local, Supplier<Instant> timeOfAWrite) {
        Objects.requireNonNull(local, "local");
        Instant before = local.instant();
        Instant server;
        try {
            server = timeOfAWrite.get();
        } catch (RuntimeException e) {
            return new ZooKeeperClock(local, Duration.ZERO, e.getMessage() == null ? e.toString() : e.getMessage());
        }
        Instant after = local.instant();
        Instant halfway = before.plus(Duration.between(before, after).dividedBy(2));
        return new ZooKeeperClock(local, Duration.between(halfway, server), null);
    }

    /** ZooKeeper's time minus the local clock's. */
    public Duration offset() {
        return offset;
    }

    /** Why this is the local clock, uncorrected; empty when calibrated against ZooKeeper. */
    public Optional<String> uncalibrated() {
        return Optional.ofNullable(uncalibrated);
    }

    @Override
    public Instant instant() {
        return local.instant().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return local.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new ZooKeeperClock(local.withZone(zone), offset, uncalibrated);
    }
}
