package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ServerPorts;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The run's Kafka broker ({@link KafkaBrokerMain} in a child JVM) and the per-member proxies in front of it: member
 * slot {@code s} bootstraps through {@link #memberProxy(int)}, and the broker advertises that proxy on the member's
 * own listener, so all of the member's Kafka traffic crosses it. The broker keeps its ports and log directory
 * across {@link #restart()}.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final String zookeeperConnect;
    private final Path dataDir;
    private final Path logDir;
    private final int plaintextPort;
    private final int[] memberPorts;
    private final TcpProxy[] memberProxies;
    private ChildJvm process;
    private int incarnation;

    private KafkaBroker(String zookeeperConnect, Path dataDir, Path logDir, int memberSlots) {
        this.zookeeperConnect = zookeeperConnect;
        this.dataDir = dataDir;
        this.logDir = logDir;
        this.plaintextPort = ServerPorts.free();
        this.memberPorts = new int[memberSlots];
        this.memberProxies = new TcpProxy[memberSlots];
        for (int s = 0; s < memberSlots; s++) {
            memberPorts[s] = ServerPorts.free();
            memberProxies[s] = TcpProxy.start("m" + s + "-kafka", memberPorts[s]);
        }
    }

    /** Starts the broker and waits for its READY line. */
    public static KafkaBroker start(String zookeeperConnect, Path dataDir, Path logDir, int memberSlots) {
        KafkaBroker broker = new KafkaBroker(zookeeperConnect, dataDir, logDir, memberSlots);
        try {
            broker.launch();
            return broker;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    private void launch() {
        List<String> args = new ArrayList<>(List.of(zookeeperConnect, dataDir.toString(), Integer.toString(plaintextPort)));
        for (int s = 0; s < memberPorts.length; s++) {
            args.add("M" + s + "=" + memberPorts[s] + ":" + memberProxies[s].port());
        }
        incarnation++;
        String name = "kafka-" + incarnation;
        process = ChildJvm.builder(name, KafkaBrokerMain.class.getName())
                .heapMb(320).jvmOptions(ChildJvm.FAST_START).jvmOptions(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.showDateTime=true",
                        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"))
                .args(args).stderrTo(logDir.resolve(name + ".stderr.log"))
                .start();
        process.requireLine(0, "READY"::equals, START_TIMEOUT, "the broker's READY");
    }

    /** The broker's own listener, straight (producer, tools). */
    public String bootstrapServers() {
        return "127.0.0.1:" + plaintextPort;
    }

    /** The bootstrap address of member slot {@code slot}: its proxy. */
    public String memberBootstrap(int slot) {
        return "127.0.0.1:" + memberProxies[slot].port();
    }

    public TcpProxy memberProxy(int slot) {
        return memberProxies[slot];
    }

    /** SIGTERM (a clean shutdown), then a start with the same data and ports. */
    public void restart() {
        process.terminate(Duration.ofSeconds(60));
        launch();
    }

    /**
     * SIGKILL, keeping the data and ports: the broker's registration stays in {@code /brokers/ids} until its ZooKeeper
     * session expires (a registered broker nobody can reach), then goes. {@link #startAgain()} brings it back.
     */
    public void kill() {
        process.kill();
    }

    /** Starts a {@link #kill() killed} broker again with its data and ports, and waits for its READY line. */
    public void startAgain() {
        if (process.isAlive()) {
            throw new IllegalStateException("the broker is running: " + describe());
        }
        launch();
    }

    public String describe() {
        return process + " " + bootstrapServers();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.terminate(Duration.ofSeconds(30));
        }
        for (TcpProxy p : memberProxies) {
            if (p != null) {
                p.close();
            }
        }
    }
}
