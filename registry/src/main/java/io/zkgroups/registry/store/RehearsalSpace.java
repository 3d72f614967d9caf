package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
    /** The space's creation time by ZooKeeper's clock. */
    private final long ctime;

    private RehearsalSpace(Znodes znodes, String path, long ctime) {
        this.znodes = znodes;
        this.path = path;
        this.ctime = ctime;
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
        long created = znodes.read(path).map(data -> data.stat().getCtime())
                .orElseThrow(() -> new RegistryException(path + " was deleted as it was created"));
        RehearsalSpace space = new RehearsalSpace(znodes, path, created);
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
            CountDownLatch changed = new CountDownLatch(1);
            boolean othersActive = othersCreated(znodes.children(directory, event -> changed.countDown())).values()
                    .stream().anyMatch(created -> created >= ctime - active.toMillis());
            if (!othersActive) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
    }

    private void sweep(String directory, Duration staleAfter) {
        othersCreated(znodes.children(directory)).forEach((other, created) -> {
            if (created < ctime - staleAfter.toMillis()) {
                LOG.info("deleting {}: a rehearsal space left behind {} s before this one", other,
                        (ctime - created) / 1000);
                znodes.deleteRecursively(other);
            }
        });
    }

    /** The creation times of the other spaces among {@code children} of the directory, read in one round trip. */
    private Map<String, Long> othersCreated(List<String> children) {
        String directory = Znodes.parentOf(path);
        List<String> others = children.stream().map(child -> directory + "/" + child).filter(p -> !p.equals(path))
                .toList();
        Map<String, Long> created = new TreeMap<>();
        znodes.readAll(others, null).forEach((other, data) -> created.put(other, data.stat().getCtime()));
        return created;
    }
}
