package io.zkgroups.rebalancer.group;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ViewFreshnessTest {

    private static WatchedEvent event(EventType type, String path, long zxid) {
        return new WatchedEvent(type, KeeperState.SyncConnected, path, zxid);
    }

    /** A view read at pzxid 100, its staleness taken once: what the next attempt starts from. */
    private static ViewFreshness readAt100() {
        ViewFreshness freshness = new ViewFreshness();
        freshness.read(100);
        freshness.takeStale();
        return freshness;
    }

    @Test
    void aViewNeverReadIsStaleAndTakingItClearsIt() {
        ViewFreshness freshness = new ViewFreshness();
        assertThat(freshness.takeStale()).isTrue();
        freshness.read(100);
        assertThat(freshness.takeStale()).isFalse();
    }

    @Test
    void aJoinOrLeaveTheLastReadReachedDoesNotMakeItStale() {
        ViewFreshness freshness = readAt100();
        freshness.heard(event(EventType.NodeDeleted, "/consumers/g/ids/a", 100));
        freshness.heard(event(EventType.NodeChildrenChanged, "/consumers/g/ids", 100));
        assertThat(freshness.takeStale()).isFalse();
    }

    @Test
    void aJoinOrLeaveAfterTheLastReadMakesItStaleOnce() {
        ViewFreshness freshness = readAt100();
        freshness.heard(event(EventType.NodeChildrenChanged, "/consumers/g/ids", 101));
        assertThat(freshness.takeStale()).isTrue();
        freshness.read(101);
        assertThat(freshness.takeStale()).isFalse();
    }

    @Test
    void anEventWithoutAZxidOrOfAnotherKindMakesItStale() {
        ViewFreshness noZxid = readAt100();
        noZxid.heard(event(EventType.NodeDeleted, "/consumers/g/ids/a", WatchedEvent.NO_ZXID));
        assertThat(noZxid.takeStale()).isTrue();

        ViewFreshness rewritten = readAt100();
        rewritten.heard(event(EventType.NodeDataChanged, "/consumers/g/ids/a", 50));
        assertThat(rewritten.takeStale()).isTrue();

        ViewFreshness other = readAt100();
        other.markStale();
        assertThat(other.takeStale()).isTrue();
    }

    @Test
    void aReadOutsideAnAttemptCoversTheMembershipEventsHeardBeforeItAndNothingElse() {
        // events through Curator carry no zxid: each makes the view stale until a read of the member list
        ViewFreshness membership = readAt100();
        membership.heard(event(EventType.NodeChildrenChanged, "/consumers/g/ids", WatchedEvent.NO_ZXID));
        membership.readBegins();
        assertThat(membership.takeStale()).isFalse();

        ViewFreshness during = readAt100();
        during.readBegins();
        during.heard(event(EventType.NodeChildrenChanged, "/consumers/g/ids", WatchedEvent.NO_ZXID));
        assertThat(during.takeStale()).as("heard while the read is answered").isTrue();

        ViewFreshness topics = readAt100();
        topics.markStale(); // e.g. a topic's partition count changed: the member list does not show it
        topics.readBegins();
        assertThat(topics.takeStale()).isTrue();
    }
}
