package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ClassData;

import java.nio.file.Path;
import java.util.Properties;

/**
 * One configuration of the rolling-bounce benchmark: which consumers make up the group, how they restart, and the
 * load. Kept in the run directory's {@code run.properties}, so that a run can be analysed again.
 *
 * @param impl      {@code legacy} (every member a real 0.8.2.2 consumer), {@code ours} (every member zkgroups) or
 *                  {@code mixed} (zkgroups members and one 0.8.2.2 consumer, in the last slot)
 * @param strategy  the zkgroups members' {@code partition.assignment.strategy}: range or sticky
 * @param handover  the zkgroups members restart by session hand-over (docs/restarts.md)
 * @param prestart  with hand-over: how many successors run ahead, each started before its predecessor's SIGTERM
 *                  and waiting for the ticket ({@code zkgroups.restart.handover.await.ms}); 0: none, 1: each one
 *                  just before its predecessor's step, K: the next K slots' successors wait at once
 * @param sliceMs   the time slice of the backlog-without-delivery figure
 * @param steadyMs  how long the steady state is observed before the first SIGTERM (the figure's noise floor)
 * @param settleMs  the health gate's {@code --settle}
 * @param classData every member JVM maps a class-data archive of its kind, written by a training member first
 *                  ({@link ClassData}; both kinds alike in a mixed group)
 */
public record BounceConfig(String impl, String strategy, boolean handover, int members, int partitions, int rate,
                           int sessionMs, long commitIntervalMs, long sliceMs, long steadyMs, long settleMs,
                           int prestart, boolean classData) {

    public static final String GROUP = "bounce";
    public static final String TOPIC = "bounce-t";

    /** Checks the combination; the message says what is wrong and which option to change. */
    public BounceConfig {
        if (!impl.equals("legacy") && !impl.equals("ours") && !impl.equals("mixed")) {
            throw new IllegalArgumentException("--impl must be legacy, ours or mixed, not '" + impl + "'");
        }
        if (!strategy.equals("range") && !strategy.equals("sticky")) {
            throw new IllegalArgumentException("--strategy must be range or sticky, not '" + strategy + "'");
        }
        if (strategy.equals("sticky") && !impl.equals("ours")) {
            throw new IllegalArgumentException("--strategy sticky needs --impl ours: with a 0.8.2.2 consumer in the group "
                    + "every member assigns by range (docs/sticky.md)");
        }
        if (handover && impl.equals("legacy")) {
            throw new IllegalArgumentException("--handover needs zkgroups members (--impl ours or mixed): 0.8.2.2 "
                    + "consumers cannot hand their session over");
        }
        if (prestart > 0 && !handover) {
            throw new IllegalArgumentException("--prestart needs --handover: a successor can only wait for a ticket (in "
                    + "a mixed group the 0.8.2.2 consumer, which has none, restarts after its exit)");
        }
        if (members < 2 || partitions < 1 || rate < 1 || sliceMs < 1 || steadyMs < 0 || settleMs < 0 || prestart < 0) {
            throw new IllegalArgumentException("--members must be at least 2; --partitions, --rate and --slice-ms at "
                    + "least 1; --steady-ms, --settle-ms and --prestart not negative");
        }
    }

    /** A short name of the configuration, e.g. {@code ours-sticky} or {@code mixed-handover}. */
    public String label() {
        return impl + (impl.equals("ours") ? "-" + strategy : "") + (handover ? "-handover" : "") + prestartLabel()
                + (classData ? "-cds" : "");
    }

    private String prestartLabel() {
        return prestart == 0 ? "" : prestart == 1 ? "-prestart" : "-prestart" + prestart;
    }

    int legacyMembers() {
        return switch (impl) {
            case "legacy" -> members;
            case "mixed" -> 1;
            default -> 0;
        };
    }

    ChaosCluster.Settings cluster(Path runDir) {
        return new ChaosCluster.Settings(runDir, GROUP, TOPIC, partitions, members - legacyMembers(), legacyMembers(),
                rate, sessionMs, commitIntervalMs, null, 500, false, 3L * sessionMs / 2,
                impl.equals("legacy") ? null : strategy, handover);
    }

    /** The run's archives: in {@code class-data/} of the run directory, or none. */
    ClassData classData(Path runDir) {
        return classData ? ClassData.in(runDir.resolve("class-data")) : ClassData.none();
    }

    Properties properties() {
        Properties p = new Properties();
        p.setProperty("impl", impl);
        p.setProperty("strategy", strategy);
        p.setProperty("handover", Boolean.toString(handover));
        p.setProperty("members", Integer.toString(members));
        p.setProperty("partitions", Integer.toString(partitions));
        p.setProperty("rate", Integer.toString(rate));
        p.setProperty("session.ms", Integer.toString(sessionMs));
        p.setProperty("commit.interval.ms", Long.toString(commitIntervalMs));
        p.setProperty("slice.ms", Long.toString(sliceMs));
        p.setProperty("steady.ms", Long.toString(steadyMs));
        p.setProperty("settle.ms", Long.toString(settleMs));
        p.setProperty("prestart", Integer.toString(prestart));
        p.setProperty("class.data", Boolean.toString(classData));
        return p;
    }

    static BounceConfig of(Properties p) {
        return new BounceConfig(p.getProperty("impl"), p.getProperty("strategy"),
                Boolean.parseBoolean(p.getProperty("handover")), Integer.parseInt(p.getProperty("members")),
                Integer.parseInt(p.getProperty("partitions")), Integer.parseInt(p.getProperty("rate")),
                Integer.parseInt(p.getProperty("session.ms")), Long.parseLong(p.getProperty("commit.interval.ms")),
                Long.parseLong(p.getProperty("slice.ms")), Long.parseLong(p.getProperty("steady.ms")),
                Long.parseLong(p.getProperty("settle.ms")), prestartOf(p.getProperty("prestart", "0")),
                Boolean.parseBoolean(p.getProperty("class.data", "false")));
    }

    /** Runs before the successors could run ahead wrote {@code true} or {@code false}. */
    private static int prestartOf(String value) {
        return switch (value) {
            case "true" -> 1;
            case "false" -> 0;
            default -> Integer.parseInt(value);
        };
    }
}
