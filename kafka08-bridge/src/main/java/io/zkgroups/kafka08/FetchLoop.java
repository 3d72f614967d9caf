package io.zkgroups.kafka08;

import io.zkgroups.rebalancer.consumer.HandOutFence;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.Subscription;
import kafka.common.ConsumerRebalanceFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The connector's fetcher thread, the only thread that touches its {@link ZkGroupConsumer}: it polls, queues what it
 * gets on the streams, runs the rebalance callbacks, commits (auto-commit, {@code commitOffsets()}, before a
 * revocation, on shutdown) and shuts the consumer down.
 * <p>
 * A stream whose queue is full does not block the thread (the {@link StreamFeed} holds the chunk back and pauses its
 * partition); taking a chunk out of a stream wakes the poll.
 * <p>
 * Revocation, inside {@code poll}: the {@link HandOutLedger} stops every hand-out of the partitions first, then their
 * queued chunks are dropped and, with auto-commit, exactly the positions handed out are committed before the
 * partitions are released. A partition lost with the session is dropped the same way, without a commit.
 */
public final class FetchLoop implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(FetchLoop.class);
    /** Bounds how late an auto-commit or the first assignment is noticed; commits and shutdown wake the poll. */
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long RETRY_BACKOFF_MS = 1000;

    /** What the loop needs to know of the connector's settings. */
    public static final class Settings {
        private final boolean autoCommit;
        private final Duration autoCommitInterval;
        private final boolean fetch;
        private final Duration releaseCommitTimeout;

        public Settings(boolean autoCommit, Duration autoCommitInterval, boolean fetch) {
            this(autoCommit, autoCommitInterval, fetch, null);
        }

        /**
         * @param releaseCommitTimeout the bound of the commit before partitions are released, when it reaches Kafka
         *                             ({@code zkgroups.rebalance.kafka.timeout.ms}); null: the consumer's own
         */
        public Settings(boolean autoCommit, Duration autoCommitInterval, boolean fetch, Duration releaseCommitTimeout) {
            this.autoCommit = autoCommit;
            this.autoCommitInterval = autoCommitInterval;
            this.fetch = fetch;
            this.releaseCommitTimeout = releaseCommitTimeout;
        }

        /** The bound of the commit before a release, or null for the consumer's default.api.timeout.ms. */
        public Duration releaseCommitTimeout() {
            return releaseCommitTimeout;
        }

        public boolean autoCommit() {
            return autoCommit;
        }

        public Duration autoCommitInterval() {
            return autoCommitInterval;
        }

        public boolean fetch() {
            return fetch;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Settings)) {
                return false;
            }
            Settings that = (Settings) o;
            return autoCommit == that.autoCommit
                    && Objects.equals(autoCommitInterval, that.autoCommitInterval)
                    && fetch == that.fetch
                    && Objects.equals(releaseCommitTimeout, that.releaseCommitTimeout);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Boolean.hashCode(autoCommit);
            h = 31 * h + Objects.hashCode(autoCommitInterval);
            h = 31 * h + Boolean.hashCode(fetch);
            h = 31 * h + Objects.hashCode(releaseCommitTimeout);
            return h;
        }

        @Override
        public String toString() {
            return "Settings[autoCommit=" + autoCommit + ", autoCommitInterval=" + autoCommitInterval + ", fetch=" + fetch
                    + ", releaseCommitTimeout=" + releaseCommitTimeout + "]";
        }
    }

    /** A request to the loop thread: {@link Commit} or {@link Stop}. */
    private interface Request {
    }

    private static final class Commit implements Request {
        private final CompletableFuture<Void> done;

        private Commit(CompletableFuture<Void> done) {
            this.done = done;
        }

        public CompletableFuture<Void> done() {
            return done;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Commit)) {
                return false;
            }
            Commit that = (Commit) o;
            return Objects.equals(done, that.done);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(done);
            return h;
        }

        @Override
        public String toString() {
            return "Commit[done=" + done + "]";
        }
    }

    private static final class Stop implements Request {

        private Stop() {
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Stop;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        @Override
        public String toString() {
            return "Stop[]";
        }
    }

    private final ZkGroupConsumer<ByteBuffer, ByteBuffer> consumer;
    private final Subscription subscription;
    private final StreamFeed feed;
    private final HandOutFence fence;
    private StreamRouting routing;
    private final HandOutLedger ledger;
    private final Settings settings;
    private final String name;
    private final LinkedBlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Thread thread;
    /** Set once the loop takes no more requests. */
    private boolean closed;
    /** What the loop stopped on, null for a stop asked for: the streams' readers are told (the loop's thread only). */
    private Throwable failure;
    private long nextAutoCommitNanos;
    /** After a failed commit at the cap, the next one waits until then. */
    private long nextCapCommitNanos;
    /** Whether a commit near the cap is being written (in the background): the next one waits for its outcome. */
    private boolean capCommitInFlight;
    private final Time time;

    public FetchLoop(ZkGroupConsumer<ByteBuffer, ByteBuffer> consumer, Subscription subscription, HandOutLedger ledger,
                     Settings settings, String name, Time time) {
        this.time = time;
        this.consumer = consumer;
        this.subscription = subscription;
        this.ledger = ledger;
        this.settings = settings;
        this.name = name;
        this.fence = consumer.handOutFence();
        this.feed = new StreamFeed(consumer, ledger, fence, settings.fetch(), name);
        this.thread = new Thread(this::run, name + "-fetcher");
    }

    /**
     * A new stream fed by this loop, before {@link #start}.
     *
     * @param capacityBytes what it queues at most ({@code queued.max.message.chunks × fetch.message.max.bytes})
     * @param timeoutMs     how long its iterator waits for a message ({@code consumer.timeout.ms}); negative: forever
     */
    public StreamChannel newStream(long capacityBytes, long timeoutMs) {
        if (thread.isAlive()) {
            throw new IllegalStateException("streams are added before the fetcher starts");
        }
        StreamChannel channel = new StreamChannel(capacityBytes, ledger, fence, timeoutMs, this::roomMade, time);
        feed.add(channel);
        return channel;
    }

    /** A stream took a chunk out of its queue: a poll waiting for room may go on. */
    private void roomMade() {
        if (feed.waitingForRoom()) {
            consumer.wakeup();
        }
    }

    /** Starts the thread: it subscribes, and queues each partition's records on the stream {@code routing} names. */
    public void start(StreamRouting streamRouting) {
        this.routing = streamRouting;
        thread.start();
    }

    /**
     * Completes once the first rebalance this member took part in has been applied to the streams, or exceptionally if
     * the loop failed before (an {@link ConsumerRebalanceFailedException} if the group refused this member).
     */
    public CompletableFuture<Void> ready() {
        return ready;
    }

    /**
     * Commits the positions handed out so far, on the fetcher thread; returns when they are stored.
     *
     * @throws IllegalStateException if the connector has shut down
     * @throws RuntimeException      what the commit failed with (a partition no longer owned, the store)
     */
    public void commit() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        submit(new Commit(done));
        try {
            done.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
        }
    }

    /** Stops polling, commits (with auto-commit) and leaves the group, ends every stream; returns when done. */
    public void stop() {
        synchronized (requests) {
            if (!closed) {
                requests.add(new Stop());
                consumer.wakeup();
            }
        }
        if (Thread.currentThread() != thread) {
            stopped.join();
        }
    }

    private void submit(Request request) {
        synchronized (requests) {
            if (closed) {
                throw new IllegalStateException(name + " has been shut down");
            }
            requests.add(request);
            consumer.wakeup();
        }
    }

    // --- the thread ----------------------------------------------------------------------------------------------

    private void run() {
        try {
            consumer.subscribe(subscription, this);
            nextAutoCommitNanos = time.nanoseconds() + settings.autoCommitInterval().toNanos();
            nextCapCommitNanos = time.nanoseconds();
            while (serveRequests()) {
                maybeAutoCommit();
                feed.flush();
                boolean settled = !ready.isDone() && consumer.groupHealth().map(h -> h.generation() > 0).orElse(false);
                poll();
                if (settled) {
                    ready.complete(null); // the poll after the first successful rebalance processed its assignment
                }
            }
        } catch (Throwable e) {
            LOG.error("[{}] the fetcher stops: {}", name, e.toString(), e);
            ready.completeExceptionally(e);
            failure = e;
        } finally {
            close();
        }
    }

    /** Serves what other threads asked for; false once asked to stop. */
    private boolean serveRequests() {
        Request request;
        while ((request = requests.poll()) != null) {
            if (request instanceof Stop) {
                return false;
            }
            Commit commit = (Commit) request;
            try {
                commit(ledger.uncommitted());
                commit.done().complete(null);
            } catch (RuntimeException e) {
                commit.done().completeExceptionally(e);
            }
        }
        return true;
    }

    private void poll() throws InterruptedException {
        try {
            feed.route(consumer.poll(POLL_TIMEOUT));
        } catch (WakeupException e) {
            // a request, or room in a stream: served by the next round
        } catch (RuntimeException e) {
            MemberHealth health = consumer.groupHealth().orElse(null);
            if (health != null && health.state() == MemberState.REFUSED) {
                throw new ConsumerRebalanceFailedException(name + ": " + e.getMessage());
            }
            LOG.warn("[{}] poll failed, retrying in {} ms: {}", name, RETRY_BACKOFF_MS, e.toString());
            Request request = requests.poll(RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS); // a stop ends the wait
            if (request != null) {
                requests.add(request);
            }
        }
    }

    /**
     * Auto-commit of what was handed out, on its interval, and sooner when a partition is past half of
     * {@code zkgroups.max.uncommitted.records} (at the cap the consumer fetches nothing more of it until a commit):
     * then at once, written in the background while the loop goes on polling, and after a failure again no sooner
     * than the interval or a second, whichever is shorter.
     */
    private void maybeAutoCommit() {
        if (!settings.autoCommit()) {
            return;
        }
        long now = time.nanoseconds();
        boolean due = now - nextAutoCommitNanos >= 0;
        if (!due && (capCommitInFlight || now - nextCapCommitNanos < 0 || consumer.nearUncommittedCap().isEmpty())) {
            return;
        }
        Map<TopicPartition, Long> handedOut = ledger.uncommitted();
        if (!due && handedOut.isEmpty()) {
            return; // at the cap with nothing handed out since the last commit: the streams still hold its records
        }
        if (!due) {
            commitNearCap(handedOut);
            return;
        }
        nextAutoCommitNanos = now + settings.autoCommitInterval().toNanos();
        try {
            commit(handedOut);
        } catch (RuntimeException e) {
            capCommitFailed(settings.autoCommitInterval().toMillis(), e);
        }
    }

    /** The commit near the cap: written on the consumer's commit thread, its outcome taken by a later call. */
    private void commitNearCap(Map<TopicPartition, Long> handedOut) {
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        handedOut.forEach((tp, offset) -> request.put(tp, new OffsetAndMetadata(offset)));
        capCommitInFlight = true;
        consumer.commitAsync(request, (offsets, error) -> {
            capCommitInFlight = false;
            if (error == null) {
                ledger.committed(handedOut);
            } else {
                capCommitFailed(Math.min(settings.autoCommitInterval().toMillis(), RETRY_BACKOFF_MS), error);
            }
        });
    }

    private void capCommitFailed(long retryMs, Exception e) {
        nextCapCommitNanos = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(retryMs);
        LOG.warn("[{}] auto-commit failed (retried in {} ms): {}", name, retryMs, e.toString());
    }

    private void commit(Map<TopicPartition, Long> offsets) {
        commit(offsets, null);
    }

    /**
     * {@code timeout} null: the consumer's default.api.timeout.ms. Every wakeup of this consumer only asks the loop to
     * come round (a request, room in a stream); one that a commit meets would fail it, and a release would then go
     * uncommitted, its records delivered again by the next owner. The wakeup is spent by the throw: the commit goes
     * out again, and the loop comes round after the poll it is in (at most {@code POLL_TIMEOUT}).
     */
    private void commit(Map<TopicPartition, Long> offsets, Duration timeout) {
        if (offsets.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, offset) -> request.put(tp, new OffsetAndMetadata(offset)));
        while (true) {
            try {
                if (timeout == null) {
                    consumer.commitSync(request);
                } else {
                    consumer.commitSync(request, timeout);
                }
                break;
            } catch (WakeupException e) {
                LOG.debug("[{}] a wakeup met the commit of {}: committing again", name, offsets);
            }
        }
        ledger.committed(offsets);
    }

    // --- rebalance callbacks, on this thread inside poll ---------------------------------------------------------------

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Integer> threads = consumer.streamAssignment();
        for (TopicPartition tp : partitions) {
            Integer thread = threads.get(tp);
            if (thread == null) {
                throw new IllegalStateException("no consumer thread for assigned partition " + tp);
            }
            StreamChannel channel = routing.channelFor(tp, thread);
            ledger.assign(tp);
            feed.assign(tp, channel);
        }
        LOG.info("[{}] assigned {}", name, partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> handedOut = ledger.revoke(partitions);
        int dropped = feed.drop(partitions);
        if (settings.autoCommit()) {
            try {
                // bounded when it reaches Kafka: 0.8.2.2 peers waiting for these partitions give up after their retries
                commit(handedOut, settings.releaseCommitTimeout());
            } catch (RuntimeException e) {
                LOG.warn("[{}] releasing {} uncommitted: the commit before the release failed; their next owner starts "
                        + "at the last committed offset: {}", name, handedOut.keySet(), e.toString());
            }
        }
        LOG.info("[{}] revoked {}: dropped {} chunks fetched but not handed out; committed {}", name, partitions, dropped,
                !settings.autoCommit() ? "nothing (auto.commit.enable=false)" : handedOut.isEmpty() ? "nothing new" : handedOut);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        ledger.revoke(partitions);
        int dropped = feed.drop(partitions);
        LOG.warn("[{}] lost {} (the ZooKeeper session ended): nothing more of them is handed out ({} chunks dropped)",
                name, partitions, dropped);
    }

    // --- shutdown --------------------------------------------------------------------------------------------------

    private void close() {
        try {
            consumer.close(); // revokes first: with auto-commit, onPartitionsRevoked commits what was handed out
        } catch (RuntimeException e) {
            LOG.warn("[{}] closing the consumer failed: {}", name, e.toString());
        } finally {
            synchronized (requests) {
                closed = true;
                Request request;
                while ((request = requests.poll()) != null) {
                    if (request instanceof Commit) {
                        ((Commit) request).done().completeExceptionally(new IllegalStateException(name + " has been shut down"));
                    }
                }
            }
            feed.shutdown(failure);
            ready.complete(null);
            stopped.complete(null);
        }
    }
}
