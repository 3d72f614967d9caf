package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.OrphanGuard;
import kafka.server.KafkaConfig;
import kafka.server.KafkaServer;
import org.apache.kafka.common.utils.Time;
import scala.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A ZooKeeper-mode Kafka 3.9 broker in a JVM of its own, with a fixed log directory and fixed ports, so that the
 * run can stop it and start it again with its data (the embedded module's broker lives in a temp dir).
 *
 * <pre>
 * KafkaBrokerMain ZK_CONNECT LOG_DIR PLAINTEXT_PORT [NAME=BIND_PORT:ADVERTISED_PORT ...]
 * </pre>
 * PLAINTEXT is the broker's own listener (producer, tools, 0.8.2.2 consumers: it is the host/port of
 * {@code /brokers/ids/0}). Each NAME listener serves one member through that member's proxy: the broker binds
 * BIND_PORT and advertises ADVERTISED_PORT (the proxy), so the member's metadata sends it back through its proxy.
 * Prints {@code READY} when started; SIGTERM shuts it down cleanly.
 */
public final class KafkaBrokerMain {

    private KafkaBrokerMain() {
    }

    public static void main(String[] args) {
        OrphanGuard.exitWhenStdinEnds();
        Properties props = new Properties();
        props.put("broker.id", "0");
        props.put("zookeeper.connect", args[0]);
        props.put("log.dirs", args[1]);
        List<String> listeners = new ArrayList<>(List.of("PLAINTEXT://127.0.0.1:" + args[2]));
        List<String> advertised = new ArrayList<>(List.of("PLAINTEXT://127.0.0.1:" + args[2]));
        List<String> protocols = new ArrayList<>(List.of("PLAINTEXT:PLAINTEXT"));
        for (int i = 3; i < args.length; i++) {
            String name = args[i].substring(0, args[i].indexOf('='));
            String[] ports = args[i].substring(args[i].indexOf('=') + 1).split(":");
            listeners.add(name + "://127.0.0.1:" + ports[0]);
            advertised.add(name + "://127.0.0.1:" + ports[1]);
            protocols.add(name + ":PLAINTEXT");
        }
        props.put("listeners", String.join(",", listeners));
        props.put("advertised.listeners", String.join(",", advertised));
        props.put("listener.security.protocol.map", String.join(",", protocols));
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("zookeeper.session.timeout.ms", "18000");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.cleaner.dedupe.buffer.size", "2097152");
        props.put("auto.create.topics.enable", "false");
        props.put("default.replication.factor", "1");
        props.put("controlled.shutdown.enable", "false");
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "2");
        props.put("background.threads", "2");
        props.put("num.recovery.threads.per.data.dir", "1");
        props.put("num.replica.fetchers", "1");
        props.put("log.cleaner.threads", "1");
        KafkaServer broker = new KafkaServer(KafkaConfig.fromProps(props), Time.SYSTEM, Option.empty(), false);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.shutdown();
            broker.awaitShutdown();
        }, "broker-shutdown"));
        broker.startup();
        System.out.println("READY");
        System.out.flush();
        broker.awaitShutdown();
    }
}
