package io.zkgroups.tool.health;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.GroupSample;
import io.zkgroups.tool.lag.GroupSampler;
import io.zkgroups.tool.lag.LagWindow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code health --max-lag-seconds S}: the group passes when no partition's lag in seconds (the age of the record at its
 * committed offset, {@link io.zkgroups.tool.lag.TimeLag}) exceeds {@code S}. Samples the group once, and again once a
 * second while a wait allows, until it passes.
 */
public final class LagGate {

    /** The verdict: the partitions over the limit in words (empty: passed), and the group's largest lag in seconds. */
    public record Result(List<String> lagging, Double maxLagSeconds) {
        public boolean passed() {
            return lagging.isEmpty();
        }
    }

    private static final Duration RESAMPLE = Duration.ofSeconds(1);

    private final GroupSampler sampler;
    private final double maxLagSeconds;

    public LagGate(Clients clients, Duration staleAfter, double maxLagSeconds) {
        clients.requireKafka("health --max-lag-seconds (it reads the records at the committed offsets)");
        this.sampler = new GroupSampler(clients, staleAfter);
        this.maxLagSeconds = maxLagSeconds;
    }

    /** Samples {@code group} until it passes or {@code waitFor} is over (zero: once). */
    public Result check(String group, Duration waitFor) {
        long deadline = System.nanoTime() + waitFor.toNanos();
        while (true) {
            Result result = once(group);
            if (result.passed() || System.nanoTime() + RESAMPLE.toNanos() > deadline) {
                return result;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(RESAMPLE.toNanos()); // the sampling period, not a wait for an event
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result;
            }
        }
    }

    private Result once(String group) {
        GroupSampler.Sampling sampling = sampler.sample(List.of(group));
        if (sampling.kafkaProblem() != null) {
            throw new CliException(ExitCode.KAFKA_PARTIAL, sampling.kafkaProblem() + ": lag in seconds unknown");
        }
        GroupSample sample = sampling.groups().get(group);
        LagWindow window = new LagWindow(1);
        window.add(sample);
        GroupLag lag = window.evaluate(sample, Duration.ZERO);
        List<String> lagging = new ArrayList<>();
        for (GroupLag.PartitionLag p : lag.partitions()) {
            if (p.lagSeconds() != null && p.lagSeconds() > maxLagSeconds) {
                lagging.add(String.format(Locale.ROOT, "%s:%d at offset %d is %.1f s behind (%s, %d records)", p.topic(),
                        p.partition(), p.offset(), p.lagSeconds(), p.lagSecondsSource(), p.lag()));
            }
        }
        return new Result(lagging, lag.maxLagSeconds());
    }
}
