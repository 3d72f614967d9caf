package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Scratch space below a group where a member rehearses the group protocol before it joins:
 * {@code /consumers/<group>/zkgroups-rehearsal/<session>}, the root of a layout of its own (a scratch group with its
 * own {@code ids} and {@code owners}). Nobody else reads it: 0.8.2.2 reads only {@code ids}, {@code owners} and
 * {@code offsets} below a group, and so does zkgroups; deleting the group deletes it too.
 * <p>
 * Its owner deletes it when done ({@link #delete()}). What a process killed meanwhile leaves behind has no ephemeral
 * znodes once its session has ended, and the next rehearsal in the group deletes it: any space created more than
 * {@link #STALE} before its own, by ZooKeeper's clock (a rehearsal lasts a few seconds at most).
 */
public final class RehearsalSpace {

    private static final Logger LOG = LoggerFactory.getLogger(RehearsalSpace.class);

    /** The directory below the group's znode. */
    public static final String DIRECTORY = "zkgroups-rehearsal";
    static final Duration STALE = Duration.ofMinutes(1);

    private final Znodes znodes;
    private final String path;
    /** The space's creation time by ZooKeeper's clock (0 if unknown). */
    private long ctime;

    private RehearsalSpace(Znodes znodes, String path) {
        this.znodes = znodes;
        this.path = path;
    }

    /**
     * Creates the space of this client's session below {@code group}, and deletes spaces left stale there.
     *
     * @throws RegistryException if ZooKeeper refuses or cannot be reached
     */
    public static RehearsalSpace create(Znodes znodes, ZkLayout layout, String group) {
        return create(znodes, layout, group, STALE);
    }

    static RehearsalSpace create(Znodes znodes, ZkLayout layout, String group, Duration staleAfter) {
        Objects.requireNonNull(znodes, "znodes cannot be null");
        String directory = layout.group(group) + "/" + DIRECTORY;
        String path = directory + "/" + Long.toHexString(znodes.sessionId());
        znodes.deleteRecursively(path); // a space of this session left by a rehearsal that gave up
        znodes.ensurePersistent(path);
        RehearsalSpace space = new RehearsalSpace(znodes, path);
        space.sweep(directory, staleAfter);
        return space;
    }

    /** The layout of the scratch group: the 0.8 layout below this space. */
    public ZkLayout layout() {
        return ZkLayout.withChroot(path);
    }

    public String path() {
        return path;
    }

    /** Deletes the space, and the directory if no other rehearsal is using it. */
    public void delete() {
        znodes.deleteRecursively(path);
        String directory = Znodes.parentOf(path);
        try {
            znodes.client().delete().forPath(directory);
        } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException inUseOrGone) {
            // another member rehearses now, or deleted it already
        } catch (Exception e) {
            throw RegistryException.of("deleting", directory, e);
        }
    }

    /**
     * After {@link #delete()}: waits until no other space created at most {@code active} before this one is left in
     * the directory (other members of the group still rehearsing: a deploy of several fresh processes), for at most
     * {@code max}. Returns whether none was left.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitOthers(Duration active, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        String directory = Znodes.parentOf(path);
        while (true) {
            java.util.concurrent.CountDownLatch changed = new java.util.concurrent.CountDownLatch(1);
            boolean othersActive = false;
            for (String child : znodes.children(directory, event -> changed.countDown())) {
                Optional<Long> created = ctime(directory + "/" + child);
                if (created.isPresent() && created.get() >= ctime - active.toMillis()) {
                    othersActive = true;
                }
            }
            if (!othersActive) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !changed.await(left, java.util.concurrent.TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
    }

    private void sweep(String directory, Duration staleAfter) {
        Optional<Long> mine = ctime(path);
        if (mine.isEmpty()) {
            return;
        }
        ctime = mine.get();
        for (String child : znodes.children(directory)) {
            String other = directory + "/" + child;
            if (other.equals(path)) {
                continue;
            }
            Optional<Long> created = ctime(other);
            if (created.isPresent() && created.get() < mine.get() - staleAfter.toMillis()) {
                LOG.info("deleting {}: a rehearsal space left behind {} s before this one", other,
                        (mine.get() - created.get()) / 1000);
                znodes.deleteRecursively(other);
            }
        }
    }

    private Optional<Long> ctime(String node) {
        try {
            Stat stat = znodes.client().checkExists().forPath(node);
            return stat == null ? Optional.empty() : Optional.of(stat.getCtime());
        } catch (Exception e) {
            throw RegistryException.of("checking", node, e);
        }
    }
}
