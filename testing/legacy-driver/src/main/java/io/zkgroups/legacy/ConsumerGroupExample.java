package io.zkgroups.legacy;

import kafka.consumer.ConsumerConfig;
import kafka.consumer.ConsumerIterator;
import kafka.consumer.KafkaStream;
import kafka.javaapi.consumer.ConsumerConnector;
import kafka.message.MessageAndMetadata;
import kafka.serializer.StringDecoder;
import kafka.utils.VerifiableProperties;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka 0.8 wiki's "Consumer Group Example", as teams wrote it: a connector, {@code createMessageStreams} with a
 * number of threads for one topic, a thread pool with one task per {@link KafkaStream}, each printing the messages of
 * its stream. Written against kafka_2.10:0.8.2.2 (this module compiles it against the real jar) and run unchanged
 * against zkgroups' kafka08-bridge by the integration tests, with the bridge's classpath instead of the real one.
 *
 * <pre>
 * ConsumerGroupExample ZOOKEEPER GROUP TOPIC THREADS [CONSUMER_ID]
 * stdout: READY, then one line per message: MSG stream topic partition offset key value; CLOSED at the end
 * stdin:  end of input (or a line "shutdown") shuts the connector down
 * </pre>
 */
public class ConsumerGroupExample {

    private final ConsumerConnector consumer;
    private final String topic;
    private ExecutorService executor;

    public ConsumerGroupExample(String zookeeper, String groupId, String topic, String consumerId) {
        this.consumer = kafka.consumer.Consumer.createJavaConsumerConnector(createConsumerConfig(zookeeper, groupId, consumerId));
        this.topic = topic;
    }

    public void shutdown() {
        if (consumer != null) {
            consumer.shutdown();
        }
        if (executor != null) {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(5000, TimeUnit.MILLISECONDS)) {
                    System.err.println("Timed out waiting for consumer threads to shut down, exiting uncleanly");
                }
            } catch (InterruptedException e) {
                System.err.println("Interrupted during shutdown, exiting uncleanly");
            }
        }
    }

    public void run(int numThreads) {
        Map<String, Integer> topicCountMap = new HashMap<String, Integer>();
        topicCountMap.put(topic, numThreads);
        StringDecoder decoder = new StringDecoder(new VerifiableProperties());
        Map<String, List<KafkaStream<String, String>>> consumerMap = consumer.createMessageStreams(topicCountMap, decoder, decoder);
        List<KafkaStream<String, String>> streams = consumerMap.get(topic);

        executor = Executors.newFixedThreadPool(numThreads);
        int threadNumber = 0;
        for (final KafkaStream<String, String> stream : streams) {
            executor.submit(new StreamPrinter(stream, threadNumber));
            threadNumber++;
        }
    }

    private static ConsumerConfig createConsumerConfig(String zookeeper, String groupId, String consumerId) {
        Properties props = new Properties();
        props.put("zookeeper.connect", zookeeper);
        props.put("group.id", groupId);
        if (consumerId != null) {
            props.put("consumer.id", consumerId);
        }
        props.put("zookeeper.session.timeout.ms", "6000");
        props.put("zookeeper.sync.time.ms", "200");
        props.put("auto.commit.interval.ms", "1000");
        props.put("auto.offset.reset", "smallest");
        props.put("rebalance.backoff.ms", "300");
        props.put("rebalance.max.retries", "30");
        return new ConsumerConfig(props);
    }

    /** Prints every message of one stream until the connector shuts down. */
    static final class StreamPrinter implements Runnable {
        private final KafkaStream<String, String> stream;
        private final int threadNumber;

        StreamPrinter(KafkaStream<String, String> stream, int threadNumber) {
            this.stream = stream;
            this.threadNumber = threadNumber;
        }

        @Override
        public void run() {
            ConsumerIterator<String, String> it = stream.iterator();
            while (it.hasNext()) {
                MessageAndMetadata<String, String> m = it.next();
                System.out.println("MSG " + threadNumber + " " + m.topic() + " " + m.partition() + " " + m.offset() + " "
                        + m.key() + " " + m.message());
            }
            System.err.println("Shutting down Thread: " + threadNumber);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: ConsumerGroupExample ZOOKEEPER GROUP TOPIC THREADS [CONSUMER_ID]");
            System.exit(2);
        }
        ConsumerGroupExample example = new ConsumerGroupExample(args[0], args[1], args[2], args.length > 4 ? args[4] : null);
        example.run(Integer.parseInt(args[3]));
        System.out.println("READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("shutdown")) {
            // the parent test drives us through stdin
        }
        example.shutdown();
        System.out.println("CLOSED");
        System.exit(0);
    }
}
