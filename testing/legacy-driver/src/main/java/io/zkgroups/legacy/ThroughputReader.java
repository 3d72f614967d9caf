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
 * ThroughputReader ZOOKEEPER GROUP TOPIC END
 * stdout: FIRST at the first message; DONE &lt;partition&gt; when it reads the message at offset END - 1 of a partition
 * stdout: at its end, READ &lt;partition&gt; &lt;from&gt;-&lt;to&gt; ... (the offsets read, see ReadRanges), then CLOSED
 * stdin:  its end shuts the connector down and exits
 * </pre>
 * Every other setting is 0.8.2.2's default, but {@code auto.offset.reset=smallest} (a fresh group reads the topic
 * from its start).
 */
public final class ThroughputReader {

    private ThroughputReader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: ThroughputReader ZOOKEEPER GROUP TOPIC END");
            System.exit(2);
        }
        String topic = args[2];
        long last = Long.parseLong(args[3]) - 1;
        final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        Properties props = new Properties();
        props.put("zookeeper.connect", args[0]);
        props.put("group.id", args[1]);
        props.put("auto.offset.reset", "smallest");
        final ConsumerConnector connector = kafka.consumer.Consumer.createJavaConsumerConnector(new ConsumerConfig(props));
        Map<String, List<KafkaStream<byte[], byte[]>>> streams =
                connector.createMessageStreams(Collections.singletonMap(topic, 1));
        final Thread reader = Thread.currentThread();
        Thread stopper = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    while (System.in.read() >= 0) {
                        // until the parent closes our stdin
                    }
                } catch (IOException e) {
                    // the parent is gone: stop as well
                }
                connector.shutdown();
                try {
                    reader.join(30_000); // it prints what it read once the stream has ended
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                out.println("CLOSED");
                System.exit(0); // a thread the connector left behind must not keep the process
            }
        }, "stopper");
        stopper.start();
        ConsumerIterator<byte[], byte[]> it = streams.get(topic).get(0).iterator();
        ReadRanges ranges = new ReadRanges();
        long read = 0;
        long touched = 0;
        try {
            while (it.hasNext()) {
                MessageAndMetadata<byte[], byte[]> m = it.next();
                touched += m.message().length;
                ranges.read(m.partition(), m.offset());
                if (++read == 1) {
                    out.println("FIRST");
                }
                if (m.offset() == last) {
                    out.println("DONE " + m.partition());
                }
            }
        } catch (RuntimeException e) {
            // the shutdown ended the stream
        }
        ranges.print(out);
        System.err.println("read " + read + " messages, " + touched + " bytes");
    }
}
