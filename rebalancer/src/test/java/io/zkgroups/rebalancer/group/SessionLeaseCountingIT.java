package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ManualTime;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which send time {@link SessionLease} counts from, on a real server with a clock the test sets: the beat before
 * the answered one, and at least one beat period back (see the class javadoc for why).
 */
@Timeout(60)
class SessionLeaseCountingIT {

    private static final int SESSION_MS = 2_000;
    private static final double MARGIN = 0.25;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theFirstBeatProvesNothingAndTheSecondRenewsFromTheFirst() throws Exception {
        CuratorFramework client = zk.newClient(SESSION_MS);
        SessionLease lease = beatenAt1000And1300(client, new ManualTime(ms(1_000), 0));
        // From the first beat: 1 000 + 0.75 x 2 000 - 1 300.
        assertThat(lease.remainingNanos()).isEqualTo(ms(1_200));
        assertThat(lease.session()).isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
    }

    @Test
    void aProcessFrozenPastTheLeaseWakesWithItRunOutBeforeAnythingIsHeard() throws Exception {
        ManualTime time = new ManualTime(ms(1_000), 0);
        SessionLease lease = beatenAt1000And1300(zk.newClient(SESSION_MS), time);
        long session = lease.session();

        time.advance(Duration.ofMillis(1_199)); // frozen: no beat sent, nothing answered
        assertThat(lease.holds(session)).isTrue();
        time.advance(Duration.ofMillis(1));
        // From the first beat: 1 000 + 0.75 x 2 000 = 2 500, the time now.
        assertThat(lease.remainingNanos()).isZero();
        assertThat(lease.holds(session)).as("run out with the session still alive on the server").isFalse();
    }

    @Test
    void beatsCloserThanAPeriodCountFromOnePeriodBack() {
        CuratorFramework client = zk.newClient(SESSION_MS);
        ManualTime time = new ManualTime(ms(5_000), 0);
        SessionLease lease = new SessionLease(client, MARGIN, time); // every beat is sent "now"
        ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
        try {
            lease.start(beats);
            await().atMost(Duration.ofSeconds(10)).until(lease::isValid);
            // One period (2 000 / 5) back: 0.75 x 2 000 - 400.
            assertThat(lease.remainingNanos()).isEqualTo(ms(1_100));
        } finally {
            lease.close();
            beats.shutdownNow();
        }
    }

    /**
     * A lease on {@code client} that beat at 1 000 ms (which proves nothing by itself) and at 1 300 ms on {@code time},
     * once the second beat's answer renewed it.
     */
    private static SessionLease beatenAt1000And1300(CuratorFramework client, ManualTime time) throws Exception {
        SessionLease lease = new SessionLease(client, MARGIN, time);
        lease.beat();
        awaitAnswersTo(client);
        assertThat(lease.isValid()).as("valid after one beat").isFalse();

        time.advance(Duration.ofMillis(300));
        lease.beat();
        await().atMost(Duration.ofSeconds(10)).until(lease::isValid);
        return lease;
    }

    /** Returns once every request sent before it on {@code client}'s connection has been answered. */
    private static void awaitAnswersTo(CuratorFramework client) throws Exception {
        ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
        CountDownLatch answered = new CountDownLatch(1);
        handle.sync("/", (rc, path, ctx) -> answered.countDown(), null); // callbacks run in order
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }
}
