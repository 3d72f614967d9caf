package io.zkgroups.registry.store;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The journal reduces each member's events to its last: read it again, or drop it. */
class MembershipJournalTest {

    private static final String IDS = "/consumers/g/ids";

    private final MembershipJournal journal = new MembershipJournal();

    private void hear(EventType type, String path) {
        journal.heard(new WatchedEvent(type, KeeperState.SyncConnected, path), IDS);
    }

    @Test
    void theLastEventOfAMemberDecides() {
        hear(EventType.NodeCreated, IDS + "/a");
        hear(EventType.NodeDeleted, IDS + "/a");
        hear(EventType.NodeDeleted, IDS + "/b");
        hear(EventType.NodeCreated, IDS + "/b");
        hear(EventType.NodeDataChanged, IDS + "/c");

        MembershipJournal.Changes changes = journal.drain();

        assertThat(changes.gone()).containsExactly("a");
        assertThat(changes.toRead()).containsExactlyInAnyOrder("b", "c");
        assertThat(changes.joinsAndLeaves()).as("creations and deletions").isEqualTo(4);
        assertThat(changes.needsListing()).isFalse();
    }

    @Test
    void aDrainForgetsWhatItReturned() {
        hear(EventType.NodeCreated, IDS + "/a");
        journal.drain();

        MembershipJournal.Changes next = journal.drain();

        assertThat(next.toRead()).isEmpty();
        assertThat(next.gone()).isEmpty();
        assertThat(next.joinsAndLeaves()).isZero();
    }

    @Test
    void theDirectoryCreatedOrDeletedCanOnlyBeListed() {
        hear(EventType.NodeDeleted, IDS);

        assertThat(journal.drain().needsListing()).isTrue();
        hear(EventType.NodeCreated, IDS);
        assertThat(journal.drain().needsListing()).isTrue();
    }

    @Test
    void listingEventsStatesAndOtherPathsChangeNothing() {
        hear(EventType.NodeChildrenChanged, IDS);
        hear(EventType.NodeCreated, IDS + "/a/child");
        hear(EventType.NodeCreated, "/consumers/g/owners/t/0");
        hear(EventType.NodeCreated, IDS + "x/a");
        journal.heard(new WatchedEvent(EventType.None, KeeperState.Disconnected, null), IDS);

        MembershipJournal.Changes changes = journal.drain();

        assertThat(changes.toRead()).isEmpty();
        assertThat(changes.gone()).isEmpty();
        assertThat(changes.needsListing()).isFalse();
    }
}
