package io.zkgroups.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private final Process process;
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final boolean legacy;
    private final long spawned = System.nanoTime();
    private volatile long readyAt;

    private ChildMember(String name, String kind, List<String> command, Ledger ledger, boolean legacy) {
        this.name = name;
        this.kind = kind;
        this.legacy = legacy;
        try {
            this.process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new DemoFailure("could not start member " + name + ": " + e.getMessage());
        }
        Thread reader = new Thread(() -> read(ledger), "reader-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** A zkgroups member in its own JVM (same classpath as the demo). */
    static ChildMember zkgroups(String name, Properties props, String topic, Ledger ledger) {
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx192m", "-cp", System.getProperty("java.class.path"),
                MemberProcess.class.getName(), write(props).toString(), topic));
        return new ChildMember(name, "zkgroups, own JVM", command, ledger, false);
    }

    /** The real kafka_2.10:0.8.2.2 high-level consumer, on its own classpath. */
    static ChildMember legacy(String name, Properties props, String topic, Ledger ledger, String classpath) {
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx128m", "-cp", classpath,
                "io.zkgroups.legacy.LegacyConsumerMain", write(props).toString(), "--topic", topic + "=1"));
        return new ChildMember(name, LEGACY_KIND, command, ledger, true);
    }

    private void read(Ledger ledger) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ", 6);
                if (f[0].equals("READY")) {
                    readyAt = System.nanoTime();
                    ready.complete(f.length > 1 ? f[1] : name);
                } else if ((f[0].equals("REC") || f[0].equals("MSG")) && f.length >= 4) {
                    ledger.delivered(kind, f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process went away; close() and kill() report what matters
        } finally {
            ready.completeExceptionally(new DemoFailure("member " + name + " exited before it was ready"));
        }
    }

    /** Waits until the member has joined (its first rebalance is done). */
    ChildMember awaitReady(long seconds) {
        try {
            ready.get(seconds, TimeUnit.SECONDS);
            return this;
        } catch (Exception e) {
            process.destroyForcibly();
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
                OutputStream stdin = process.getOutputStream();
                stdin.write("shutdown\n".getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            } else {
                process.toHandle().destroy(); // SIGTERM: the member commits and leaves
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new DemoFailure("member " + name + " did not leave within 30 s");
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public void kill() {
        process.toHandle().destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
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
