package io.zkgroups.demo;

import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A member in a child JVM: a zkgroups {@link MemberProcess} or the real 0.8.2.2 consumer driver. Its stdout
 * lines ({@code REC …} or {@code MSG …}) go into the ledger; it can be stopped gracefully or killed with -9.
 */
final class ChildMember implements Member {

    private final String name;
    /** The kind of a real kafka 0.8.2.2 consumer. */
    static final String LEGACY_KIND = "kafka 0.8.2.2";

    private final String kind;
    private final ChildJvm jvm;
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final boolean legacy;
    private final long spawned = System.nanoTime();
    private volatile long readyAt;

    private ChildMember(String name, String kind, ChildJvm.Builder builder, Ledger ledger, boolean legacy) {
        this.name = name;
        this.kind = kind;
        this.legacy = legacy;
        try {
            this.jvm = builder.discardStderr().onLine(line -> take(line, ledger))
                    .onEnd(() -> ready.completeExceptionally(new DemoFailure("member " + name + " exited before it was ready")))
                    .start();
        } catch (UncheckedIOException e) {
            throw new DemoFailure("could not start member " + name + ": " + e.getCause().getMessage());
        }
    }

    /** A zkgroups member in its own JVM (same classpath as the demo). */
    static ChildMember zkgroups(String name, Properties props, String topic, Ledger ledger) {
        return new ChildMember(name, "zkgroups, own JVM", ChildJvm.builder(name, MemberProcess.class.getName())
                .heapMb(192).args(List.of(write(props).toString(), topic)), ledger, false);
    }

    /** The real kafka_2.10:0.8.2.2 high-level consumer, on its own classpath. */
    static ChildMember legacy(String name, Properties props, String topic, Ledger ledger, String classpath) {
        return new ChildMember(name, LEGACY_KIND, ChildJvm.builder(name, "io.zkgroups.legacy.LegacyConsumerMain")
                .classpath(classpath).heapMb(128).args(List.of(write(props).toString(), "--topic", topic + "=1")),
                ledger, true);
    }

    /** Takes one stdout line ({@code READY}, {@code REC …} or {@code MSG …}); none is kept. */
    private boolean take(String line, Ledger ledger) {
        String[] f = line.split(" ", 6);
        if (f[0].equals("READY")) {
            readyAt = System.nanoTime();
            ready.complete(f.length > 1 ? f[1] : name);
        } else if ((f[0].equals("REC") || f[0].equals("MSG")) && f.length >= 4) {
            ledger.delivered(kind, f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]));
        }
        return true;
    }

    /** Waits until the member has joined (its first rebalance is done). */
    ChildMember awaitReady(long seconds) {
        try {
            ready.get(seconds, TimeUnit.SECONDS);
            return this;
        } catch (Exception e) {
            jvm.process().destroyForcibly();
            throw new DemoFailure("member " + name + " (" + kind + ") did not join within " + seconds + " s: " + e.getMessage());
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long joinStartedNanos() {
        return legacy || readyAt == 0 ? spawned : readyAt;
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public boolean killable() {
        return true;
    }

    @Override
    public void close() {
        try {
            if (legacy) {
                jvm.send("shutdown");
            } else {
                jvm.sigterm(); // the member commits and leaves
            }
            if (!jvm.process().waitFor(30, TimeUnit.SECONDS)) {
                jvm.process().destroyForcibly();
                throw new DemoFailure("member " + name + " did not leave within 30 s");
            }
        } catch (UncheckedIOException e) {
            jvm.process().destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            jvm.process().destroyForcibly();
        }
    }

    @Override
    public void kill() {
        jvm.process().toHandle().destroyForcibly();
        try {
            jvm.process().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path write(Properties props) {
        try {
            Path file = Files.createTempFile("zkgroups-demo-member-", ".properties");
            file.toFile().deleteOnExit();
            try (var out = Files.newOutputStream(file)) {
                props.store(out, "zkgroups demo member");
            }
            return file;
        } catch (IOException e) {
            throw new DemoFailure("could not write a member's properties: " + e.getMessage());
        }
    }
}
