package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One group's members, read again and again by the same client (a member's rebalance attempts): each read lists
 * {@code /consumers/G/ids} and reads only the registrations it cannot vouch for. The others cannot have changed:
 * <ul>
 *   <li>every create and delete under {@code ids} bumps its cversion, so when the cversion moved by exactly the
 *       number of names that appeared and disappeared, no name was deleted and created again in between;</li>
 *   <li>every registration read arms a data watch (or, after {@link #watchDirectory}, one persistent recursive watch
 *       covers them all), and a fired watch marks that registration for re-reading;</li>
 *   <li>watches do not outlive a session, so a new session reads everything again; nor is anything trusted across a
 *       disconnection, which a persistent watch does not replay.</li>
 * </ul>
 * A steady group of N members thus costs one listing per read instead of N + 1 requests. Under the directory's
 * persistent watch (ZooKeeper 3.6+) it does not even list: the joins, leaves and rewrites the watch has heard since
 * the last read are applied to it ({@link MembershipJournal}), so a change costs each member its event and the read of
 * the registration that joined, not a listing of all N (which made every change cost the group N × N names). A listing
 * comes back after a new session or a disconnection (a persistent watch does not replay what happened meanwhile) and
 * when {@code ids} itself was created or deleted. On 3.4 and 3.5 every read lists. A single member's leave needs no read
 * at all before the caller acts on it ({@link #afterLeaveHeard}). Not thread-safe: one caller at a time (the member's
 * event loop); the watch events come from ZooKeeper's event thread.
 */
public final class MemberList {

    /** One read of the group. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Read {
        private final Listing<Member> listing;
        private final int cversion;
        private final int readNow;
        private final long pzxid;

        /**
         * Creates it from its parts.
         *
         * @param listing  the members (sorted by id) and the registrations that could not be decoded
         * @param cversion the cversion of {@code ids} the listing was taken at (a read from events: the last listing's
         *                 plus the joins and leaves heard since); -1 when {@code ids} does not exist
         * @param readNow  how many registrations this read fetched from ZooKeeper (the rest came from earlier reads)
         * @param pzxid    the zxid of the last member to join or leave before the listing (the pzxid of {@code ids}; a
         *                 read from events gives the last listing's); -1 when {@code ids} does not exist
         */
        public Read(Listing<Member> listing, int cversion, int readNow, long pzxid) {
            this.listing = listing;
            this.cversion = cversion;
            this.readNow = readNow;
            this.pzxid = pzxid;
        }

        public Listing<Member> listing() {
            return listing;
        }

        public int cversion() {
            return cversion;
        }

        public int readNow() {
            return readNow;
        }

        public long pzxid() {
            return pzxid;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Read)) {
                return false;
            }
            Read that = (Read) o;
            return Objects.equals(listing, that.listing)
                    && cversion == that.cversion
                    && readNow == that.readNow
                    && pzxid == that.pzxid;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(listing);
            h = 31 * h + Integer.hashCode(cversion);
            h = 31 * h + Integer.hashCode(readNow);
            h = 31 * h + Long.hashCode(pzxid);
            return h;
        }

        @Override
        public String toString() {
            return "Read[listing=" + listing + ", cversion=" + cversion + ", readNow=" + readNow + ", pzxid=" + pzxid + "]";
        }
    }

    private final Znodes znodes;
    private final ZkLayout layout;
    private final String group;
    /** The last read, by name: sorted, so a listing of it needs no sort (ids share the group's prefix: costly compares). */
    private final Map<String, MemberEntry> known = new TreeMap<>();
    /**
     * The listing of {@link #known}, handed out again for as long as it is unchanged (null: build it again), so that
     * a caller may tell an unchanged group by identity and keep what it derived from it.
     */
    private Listing<Member> listing;
    /** The member {@link #afterLeaveHeard} assumed gone, and the listing it handed out without it; null: none. */
    private String assumedGone;
    private Listing<Member> assumedListing;
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    private int knownCversion = -1;
    private long knownPzxid = -1;
    private long knownSession;
    private boolean knownWatched;
    private volatile Watcher onChange;
    private final Watcher watcher = this::changed;
    /** Whether to watch {@code ids} with one persistent recursive watch instead of a data watch per registration. */
    private boolean watchDirectory;
    /** The session the directory's persistent watch was armed in; 0: not armed. */
    private long directoryWatchSession;
    /** Disconnections heard through the watches: a persistent watch misses what happens meanwhile (event thread). */
    private volatile long disconnections;
    private long knownDisconnections;
    /** What the watches armed by the last read have heard since it: see {@link #afterLeaveHeard}. */
    private final MembershipEvents heard = new MembershipEvents();
    /** The joins, leaves and rewrites the directory's watch has heard since the last read, to apply to it. */
    private final MembershipJournal journal = new MembershipJournal();
    /** Whether the last read was made under the directory's watch, armed in {@link #knownSession}. */
    private boolean knownUnderDirectory;
    /** Whether the last read applied events rather than listing {@code ids}: a later listing then trusts nothing. */
    private boolean knownFromEvents;

    MemberList(Znodes znodes, ZkLayout layout, String group) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
        this.group = Objects.requireNonNull(group, "group cannot be null");
    }

    /**
     * From now on, where the servers have persistent watches (3.6+), watches {@code /consumers/G/ids} and every
     * registration below it with one persistent recursive watch, armed once per session, instead of a data watch per
     * registration read, and reads the registrations it must in batches (multi-reads of {@value Znodes#MULTI_READ_BATCH}):
     * a group of N members then holds N such watches instead of N × N, and a member that joins a group of N reads the
     * N registrations in a few requests instead of N; later reads apply what the watch heard instead of listing
     * {@code ids} (see the class comment). For a caller that reads the group again and again with a watcher
     * and calls {@link #stopWatching} when done; the watch lives until then or the session ends.
     */
    public void watchDirectory() {
        this.watchDirectory = true;
    }

    /** Stops hearing the directory's persistent watch on this client, without a request (see {@link #watchDirectory}). */
    public void stopWatching() {
        watchDirectory = false;
        if (directoryWatchSession != 0) {
            directoryWatchSession = 0;
            try {
                znodes.client().watchers().remove(watcher).ofType(Watcher.WatcherType.Any).locally()
                        .forPath(layout.memberIds(group));
            } catch (Exception e) {
                // the session ends with the client
            }
        }
    }

    /**
     * Reads the group. {@code onChange} (if given) is armed on the membership and on every registration, so it
     * hears of members joining and leaving and of registrations being rewritten. Without it nothing is watched,
     * and the next read reads everything again.
     */
    public Read read(Watcher onChange) {
        String assumedGone = this.assumedGone;
        Listing<Member> assumedListing = this.assumedListing;
        this.assumedGone = null;
        this.assumedListing = null;
        this.onChange = onChange;
        Watcher watch = onChange == null ? null : watcher;
        String ids = layout.memberIds(group);
        long session = znodes.sessionId();
        heard.clear(); // before the listing: an event that comes while it is answered is kept, which is safe
        long disconnectionsNow = disconnections;
        boolean armed = watch != null && directoryWanted() && directoryWatchSession == session;
        if (armed && knownUnderDirectory && session == knownSession && disconnectionsNow == knownDisconnections) {
            MembershipJournal.Changes changes = journal.drain();
            if (!changes.needsListing()) {
                return readFromEvents(changes, ids, assumedGone, assumedListing);
            }
        }
        journal.clear(); // before the listing: what comes while it is answered is applied to it again, which is safe
        // not armed yet in this session: the watch goes out right before the listing, in the same round trip
        CompletableFuture<KeeperException.Code> arming = watch != null && !armed && directoryWanted()
                ? znodes.addRecursiveWatchAsync(ids, watcher) : null;
        Stat stat = new Stat();
        List<String> names;
        try {
            names = watch == null
                    ? znodes.client().getChildren().storingStatIn(stat).forPath(ids)
                    : znodes.client().getChildren().storingStatIn(stat).usingWatcher(watch).forPath(ids);
        } catch (KeeperException.NoNodeException missing) {
            if (arming != null) {
                directoryArmed(arming, session);
            }
            if (watch != null) {
                znodes.existsWatch(ids, watch);
            }
            known.clear();
            listing = null;
            knownCversion = -1;
            return new Read(Listing.empty(), -1, 0, -1);
        } catch (Exception e) {
            throw RegistryException.of("listing", ids, e);
        }
        boolean underDirectoryWatch = armed || arming != null && directoryArmed(arming, session);
        Set<String> current = new HashSet<>(names);
        Set<String> appeared = new HashSet<>(current);
        appeared.removeAll(known.keySet());
        long disappeared = known.keySet().stream().filter(name -> !current.contains(name)).count();
        boolean trusted = knownWatched && session == knownSession && knownCversion >= 0 && !knownFromEvents
                && knownDisconnections == disconnectionsNow
                && stat.getCversion() - knownCversion == appeared.size() + disappeared;
        Set<String> toRead = new HashSet<>();
        for (String name : names) {
            if (!trusted || appeared.contains(name) || changed.remove(name)) {
                toRead.add(name);
            }
        }
        changed.retainAll(current); // marks of members gone for good (a name that comes back is read anyway)
        Map<String, String> pathOf = new HashMap<>(toRead.size() * 2);
        toRead.forEach(name -> pathOf.put(name, ids + "/" + name));
        Collection<String> paths = pathOf.values();
        Map<String, Znodes.Data> read = underDirectoryWatch ? znodes.readSmall(paths) : znodes.readAll(paths, watch);
        Map<String, MemberEntry> now = new HashMap<>(names.size() * 2);
        for (String name : names) {
            String path = pathOf.get(name);
            Znodes.Data data = path == null ? null : read.get(path);
            if (path == null) {
                now.put(name, known.get(name));
            } else if (data != null) {
                now.put(name, decode(name, path, data));
            } // else: left between the listing and the read; the watch tells the caller
        }
        if (!toRead.isEmpty() || disappeared > 0) { // else every name is known's, with its entry: nothing changed
            known.clear();
            known.putAll(now);
            listing = null;
        }
        knownCversion = stat.getCversion();
        knownPzxid = stat.getPzxid();
        knownSession = session;
        knownWatched = watch != null;
        knownDisconnections = disconnectionsNow;
        knownUnderDirectory = underDirectoryWatch;
        knownFromEvents = false;
        return new Read(listing(), stat.getCversion(), toRead.size(), stat.getPzxid());
    }

    /**
     * The last read with the {@code changes} heard since applied: the registrations created or rewritten are read (in
     * multi-reads), the deleted ones dropped, and {@code ids} is not listed. Only under the directory's watch, armed in
     * the session of the last read, with no disconnection since: then every join, leave and rewrite has been heard, in
     * order. The returned read's {@code cversion} counts the joins and leaves heard; its {@code pzxid} is the last
     * listing's (events through Curator carry no zxid). When all that was heard is the leave of {@code assumedGone},
     * which {@link #afterLeaveHeard} handed out {@code assumedListing} for, the read gives that listing: what it holds,
     * and the same object, by which the caller knows the group it acted on.
     */
    private Read readFromEvents(MembershipJournal.Changes changes, String ids, String assumedGone,
                                Listing<Member> assumedListing) {
        for (String name : changes.gone()) {
            if (known.remove(name) != null) {
                listing = null;
            }
        }
        Set<String> toRead = new HashSet<>(changes.toRead());
        for (String name : changed) {
            if (known.containsKey(name)) {
                toRead.add(name); // a mark the journal may not hold (heard before a listing that did not read it)
            }
        }
        changed.removeAll(toRead);
        changed.removeAll(changes.gone());
        Map<String, String> pathOf = new HashMap<>(toRead.size() * 2);
        toRead.forEach(name -> pathOf.put(name, ids + "/" + name));
        Map<String, Znodes.Data> read = pathOf.isEmpty()
                ? Collections.<String, Znodes.Data>emptyMap() : znodes.readSmall(pathOf.values());
        if (!pathOf.isEmpty()) {
            listing = null;
        }
        pathOf.forEach((name, path) -> {
            Znodes.Data data = read.get(path);
            if (data == null) {
                known.remove(name); // gone since its event; the deletion's event follows, and changes nothing
            } else {
                known.put(name, decode(name, path, data));
            }
        });
        knownCversion += changes.joinsAndLeaves();
        knownFromEvents = true;
        if (toRead.isEmpty() && assumedGone != null && changes.gone().equals(Collections.singleton(assumedGone))) {
            listing = assumedListing;
        }
        return new Read(listing(), knownCversion, toRead.size(), knownPzxid);
    }

    /**
     * The last read without the one member whose leave the watches it armed have heard, when that leave is all that
     * can have changed since: what {@link #read} would return, without its round trip. ZooKeeper sends watch events in
     * the order of their transactions, and the listing's watch fires at the first change to {@code ids} after the
     * read: so when the first event heard is a registration's deletion and the only other one the listing's, no member
     * joined or left before it and no registration was rewritten. Not covered, so the caller reads the group again
     * right after acting on it: a multi-operation that deletes that registration and creates another in the same
     * transaction; and the listing's watch, which has fired, is armed again only by that read. The returned read's
     * {@code pzxid} is the last read's (the deletion's zxid is not known); a read from events that finds just that leave
     * hands out its listing again. Empty when anything else was heard, or when
     * the last read is not from this session or armed no watches.
     */
    public Optional<Read> afterLeaveHeard() {
        if (!knownWatched || knownCversion < 0 || znodes.sessionId() != knownSession) {
            return Optional.empty();
        }
        return heard.onlyLeave().filter(name -> known.get(name) != null).map(name -> {
            Map<String, MemberEntry> after = new TreeMap<>(known);
            after.remove(name);
            assumedGone = name;
            assumedListing = listingOf(after.values());
            return new Read(assumedListing, knownCversion + 1, 0, knownPzxid);
        });
    }

    /** Whether {@code ids} is to be under one persistent recursive watch: wanted, and the servers have them. */
    private boolean directoryWanted() {
        return watchDirectory && znodes.generation().hasPersistentWatches() && znodes.generation().hasMultiRead();
    }

    /**
     * Whether the persistent watch sent just before the listing was armed (in {@code session}); armed before the
     * listing and the reads it covers, so nothing they see can change unheard. If the server refused it, registrations
     * are watched one by one from now on.
     */
    private boolean directoryArmed(CompletableFuture<KeeperException.Code> arming, long session) {
        if (znodes.awaitAnswer(arming) == KeeperException.Code.OK) {
            directoryWatchSession = session;
            return true;
        }
        watchDirectory = false; // e.g. a server that refused addWatch: a data watch per registration instead
        return false;
    }

    /** The listing of {@link #known}: the one handed out before while it is unchanged. */
    private Listing<Member> listing() {
        if (listing == null) {
            listing = listingOf(known.values());
        }
        return listing;
    }

    /**
     * The members and the unreadable registrations among {@code entries}, which come in name order (a {@link TreeMap}
     * by name): a member's id is its name, ordered alike, so the members need no sort.
     */
    private static Listing<Member> listingOf(Collection<MemberEntry> entries) {
        List<Member> members = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        entries.forEach(entry -> {
            if (entry.member() != null) {
                members.add(entry.member());
            } else {
                unreadable.add(entry.unreadable());
            }
        });
        unreadable.sort(Comparator.comparing(Unreadable::path));
        return new Listing<>(members, unreadable);
    }

    /**
     * True if {@code id}'s registration is, as far as this list can tell, still the node the last read found as an
     * ephemeral of {@code session}: that read watched it, in {@code session}, and its watch has not fired since
     * (a registration is never rewritten, so any change to it fires the watch first). Its owner may then delete it
     * without reading it again.
     */
    public boolean vouchesFor(ConsumerId id, long session) {
        MemberEntry entry = known.get(id.value());
        return knownWatched && knownSession == session && knownDisconnections == disconnections
                && entry != null && entry.member() != null
                && entry.member().ephemeralOwner() == session && !changed.contains(id.value());
    }

    private static MemberEntry decode(String name, String path, Znodes.Data data) {
        try {
            MemberRegistration registration = MemberRegistrationCodec.decode(data.bytes());
            return new MemberEntry(new Member(new ConsumerId(name), registration, data.stat().getCzxid(),
                    data.stat().getEphemeralOwner()), null);
        } catch (DecodeException e) {
            return new MemberEntry(null, new Unreadable(path, e.getMessage()));
        }
    }

    private void changed(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.None
                && event.getState() != Watcher.Event.KeeperState.SyncConnected) {
            disconnections++; // every armed watch hears it; a persistent one misses what happens meanwhile
        }
        heard.heard(event, layout.memberIds(group));
        journal.heard(event, layout.memberIds(group)); // used only while under the directory's watch
        String path = event.getPath();
        if ((event.getType() == Watcher.Event.EventType.NodeDataChanged
                || event.getType() == Watcher.Event.EventType.NodeDeleted) && path != null) {
            changed.add(path.substring(path.lastIndexOf('/') + 1));
        }
        Watcher forward = onChange;
        if (forward != null) {
            forward.process(event);
        }
    }
}
