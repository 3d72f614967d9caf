package io.zkgroups.legacy;

import kafka.consumer.ConsumerConfig;
import kafka.consumer.ConsumerIterator;
import kafka.consumer.KafkaStream;
import kafka.javaapi.consumer.ConsumerConnector;
import kafka.message.MessageAndMetadata;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * An ordinary 0.8 reader, as a team's pipeline would be written: one connector, one stream for one topic, a loop over
 * its iterator that touches every message. Compiled against kafka_2.10:0.8.2.2 and run unchanged on the real jar and
 * on zkgroups' kafka08-bridge by the throughput benchmark, which times it from outside.
 *
 * <pre>
 * ThroughputReader ZOOKEEPER GROUP TOPIC RECORDS
 * stdout: FIRST at the first message; LAST &lt;checksum&gt; once RECORDS messages have been read (then it shuts
 *         the connector down); CLOSED at the end
 * </pre>
 * Every other setting is 0.8.2.2's default, but {@code auto.offset.reset=smallest} (a fresh group reads the topic
 * from its start).
 */
public final class ThroughputReader {

    private ThroughputReader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: ThroughputReader ZOOKEEPER GROUP TOPIC RECORDS");
            System.exit(2);
        }
        String topic = args[2];
        long records = Long.parseLong(args[3]);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        Properties props = new Properties();
        props.put("zookeeper.connect", args[0]);
        props.put("group.id", args[1]);
        props.put("auto.offset.reset", "smallest");
        ConsumerConnector connector = kafka.consumer.Consumer.createJavaConsumerConnector(new ConsumerConfig(props));
        Map<String, List<KafkaStream<byte[], byte[]>>> streams =
                connector.createMessageStreams(Collections.singletonMap(topic, 1));
        ConsumerIterator<byte[], byte[]> it = streams.get(topic).get(0).iterator();
        long read = 0;
        long checksum = 0;
        while (read < records && it.hasNext()) {
            MessageAndMetadata<byte[], byte[]> m = it.next();
            checksum += m.offset() + m.message().length;
            if (++read == 1) {
                out.println("FIRST");
            }
        }
        out.println("LAST " + checksum);
        connector.shutdown();
        out.println("CLOSED");
        System.exit(0); // a thread the connector left behind must not keep the process
    }
}
