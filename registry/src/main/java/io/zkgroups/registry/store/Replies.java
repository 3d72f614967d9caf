package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/** Counts the replies of requests sent back to back and collects the unexpected errors among them. */
final class Replies {

    private static final long TIMEOUT_SECONDS = 30;

    private final CountDownLatch pending;
    private final int expected;
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

    Replies(int expected) {
        this.expected = expected;
        this.pending = new CountDownLatch(expected);
    }

    void arrived() {
        pending.countDown();
    }

    /** A callback that hands OK and NONODE replies to {@code onReply} and records any other error. */
    BackgroundCallback callback(BiConsumer<String, CuratorEvent> onReply) {
        return (c, event) -> {
            try {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                    onReply.accept(event.getPath(), event);
                } else {
                    failures.add(event.getPath() + ": " + KeeperException.Code.get(rc));
                }
            } finally {
                pending.countDown();
            }
        };
    }

    /** Waits for every reply; throws if one did not come or was an unexpected error. */
    void await(Collection<String> paths) {
        try {
            if (!pending.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new RegistryException("no reply from ZooKeeper within " + TIMEOUT_SECONDS + " s for "
                        + pending.getCount() + " of " + expected + " requests, e.g. for " + paths.iterator().next()
                        + " (is ZooKeeper reachable?)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryException.of("reading", Znodes.describe(paths), e);
        }
        if (!failures.isEmpty()) {
            throw new RegistryException("reading " + failures.size() + " of " + paths.size() + " znodes failed, e.g. "
                    + failures.get(0));
        }
    }
}
