package io.zkgroups.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * Writes the {@link ClassData} archive of each kind of member in the group, before the group starts: one training
 * member of that kind, in a group of its own on the run's topic, runs until it has handed out records, then leaves
 * gracefully; its JVM writes the archive as it exits. Its log and files stay in the archive directory, out of the
 * run's history.
 */
final class ClassDataTraining {

    static final String OURS = "ours";
    static final String LEGACY = "legacy";

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    private final ChaosCluster cluster;
    private final ClassData classData;
    private final String legacyClasspath;

    ClassDataTraining(ChaosCluster cluster, ClassData classData, String legacyClasspath) {
        this.cluster = cluster;
        this.classData = classData;
        this.legacyClasspath = legacyClasspath;
    }

    void run() {
        if (cluster.settings().members() > 0) {
            train(OURS);
        }
        if (cluster.settings().legacyMembers() > 0) {
            train(LEGACY);
        }
    }

    private void train(String kind) {
        ChaosCluster.Settings settings = cluster.settings();
        Path dir = classData.archive(kind).getParent();
        Path logFile = dir.resolve(kind + "-training.log");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long start = System.nanoTime();
        boolean legacy = kind.equals(LEGACY);
        String name = (legacy ? "l" : "m") + "-training"; // the first letter tells MemberProcess#legacy the kind
        Map<String, String> props = cluster.memberProperties(cluster.ensemble().connectString(),
                cluster.broker().bootstrapServers(), settings.group() + "-class-data", name, legacy);
        List<String> options = classData.trainingOptions(kind);
        Path stderr = settings.runDir().resolve("stderr");
        MemberProcess trainee = legacy
                ? MemberProcess.startLegacy(name, dir.resolve(name), logFile, stderr, settings.topic(), legacyClasspath,
                settings.commitIntervalMs(), props, options)
                : MemberProcess.spawn(name, logFile, stderr, settings.topic(), "correct", settings.commitIntervalMs(),
                props, options).awaitStart();
        try {
            await(name + " hands out records").atMost(DELIVERY_TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .until(() -> handedOut(logFile));
            int exit = trainee.close(EXIT_TIMEOUT);
            if (!Files.isRegularFile(classData.archive(kind))) {
                throw new ChaosException(name + " exited with " + exit + " without writing "
                        + classData.archive(kind) + " (see " + stderr.resolve(name + ".stderr.log") + ")");
            }
            cluster.journal().log("CLASS-DATA", kind + " " + Files.size(classData.archive(kind)) + " bytes in "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (trainee.isAlive()) {
                trainee.jvm().kill();
            }
        }
    }

    private static boolean handedOut(Path logFile) throws IOException {
        if (!Files.isRegularFile(logFile)) {
            return false;
        }
        try (var lines = Files.lines(logFile)) {
            return lines.anyMatch(l -> l.startsWith("REC "));
        }
    }
}
