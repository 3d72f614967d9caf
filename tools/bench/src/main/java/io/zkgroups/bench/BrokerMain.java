package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;

import java.io.IOException;

/**
 * A Kafka 3.9 broker in ZooKeeper mode in its own JVM, for benchmarks whose clients must not share a JVM with it.
 *
 * <pre>
 * BrokerMain ZOOKEEPER
 * stdout: BOOTSTRAP &lt;host:port&gt; once it serves; it stops at the end of its stdin
 * </pre>
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws IOException {
        try (EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(args[0])) {
            System.out.println("BOOTSTRAP " + broker.bootstrapServers());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the parent closes our stdin
            }
        }
        System.exit(0);
    }
}
