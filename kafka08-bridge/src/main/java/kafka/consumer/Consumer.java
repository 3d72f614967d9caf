package kafka.consumer;

/** Creates high-level consumer connectors, as 0.8.2.2's {@code kafka.consumer.Consumer}. */
public final class Consumer {

    private Consumer() {
    }

    /**
     * Connects to ZooKeeper and returns a connector of the group {@code config} names. It joins the group when it
     * creates its message streams.
     *
     * @throws RuntimeException if ZooKeeper cannot be reached within {@code zookeeper.connection.timeout.ms}, or no
     *                          Kafka broker is known ({@code bootstrap.servers} unset and none registered in ZooKeeper)
     */
    public static kafka.javaapi.consumer.ConsumerConnector createJavaConsumerConnector(ConsumerConfig config) {
        return new kafka.javaapi.consumer.ZookeeperConsumerConnector(config);
    }
}
