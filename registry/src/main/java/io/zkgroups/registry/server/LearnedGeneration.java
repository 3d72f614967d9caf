package io.zkgroups.registry.server;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * One client's {@link ServerGeneration} as learned from its servers: asked on first use, then kept; a finding that
 * rests on a server's silence ({@link ServerProbe.Finding#provisional()}) is kept until the first use after
 * {@link #FIRST_RECHECK}, then the servers are asked again, each time twice as late, up to {@link #LAST_RECHECK}. A
 * client that started while its servers were too busy to answer thus comes to use what they have once they do.
 * Thread-safe: one caller asks at a time; the others meanwhile get what is known, or, while nothing is known yet,
 * wait for the first answer (a probe started ahead, {@link ServerCapabilities#learnAhead}, is not made twice).
 */
final class LearnedGeneration {

    static final Duration FIRST_RECHECK = Duration.ofSeconds(30);
    static final Duration LAST_RECHECK = Duration.ofMinutes(16);

    private ServerGeneration generation;
    /** Null once settled; otherwise how long the current provisional finding holds. */
    private Duration holdsFor;
    private long recheckAtNanos;
    private boolean asking;

    /**
     * The generation at {@code nowNanos}, asking the servers if nothing is known yet or a provisional finding is due;
     * the finding when it is new or changed, for the caller to log.
     *
     * @param probe asks the servers (blocking); not kept, so that the client it asks can be collected
     * @throws Exception what the first probe threw (a later one that fails keeps what is known)
     */
    Learned get(long nowNanos, Callable<ServerProbe.Finding> probe) throws Exception {
        ServerGeneration known;
        synchronized (this) {
            while (asking && generation == null) {
                wait(); // the first probe is under way: its answer is this caller's too
            }
            boolean due = generation == null || (holdsFor != null && !asking && nowNanos - recheckAtNanos >= 0);
            if (!due || (asking && generation != null)) {
                return new Learned(generation, null);
            }
            asking = true;
            known = generation;
        }
        ServerProbe.Finding finding;
        try {
            finding = probe.call();
        } catch (Exception e) {
            synchronized (this) {
                asking = false;
                notifyAll();
                if (known == null) {
                    throw e;
                }
                holdUntil(nowNanos); // ask again later, as if it had been silent
                return new Learned(known, null);
            }
        }
        synchronized (this) {
            asking = false;
            notifyAll();
            generation = finding.generation();
            if (finding.provisional()) {
                holdUntil(nowNanos);
            } else {
                holdsFor = null;
            }
            return new Learned(generation, known == generation ? null : finding);
        }
    }

    /** How long the provisional finding now holds (for the log). */
    synchronized Duration holdsFor() {
        return holdsFor;
    }

    private void holdUntil(long nowNanos) {
        holdsFor = holdsFor == null ? FIRST_RECHECK
                : holdsFor.multipliedBy(2).compareTo(LAST_RECHECK) > 0 ? LAST_RECHECK : holdsFor.multipliedBy(2);
        recheckAtNanos = nowNanos + holdsFor.toNanos();
    }

    /** A generation, and the finding behind it when it is news (null otherwise). */
    static final class Learned {
        final ServerGeneration generation;
        final ServerProbe.Finding news;

        Learned(ServerGeneration generation, ServerProbe.Finding news) {
            this.generation = generation;
            this.news = news;
        }
    }
}
