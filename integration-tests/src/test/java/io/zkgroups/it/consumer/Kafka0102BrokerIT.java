package io.zkgroups.it.consumer;

/**
 * {@link OldBrokerContract} against a real Kafka 0.10.2 broker (servers/kafka-0.10.2) on Java 8: the Admin client
 * cannot list log offsets there (it needs Metadata v4, 0.11.0), so {@code offsets reset} fails with a clear error.
 */
class Kafka0102BrokerIT extends OldBrokerContract {

    @Override
    String release() {
        return "0.10.2";
    }

    @Override
    String module() {
        return "kafka010";
    }

    @Override
    boolean adminListsOffsets() {
        return false;
    }
}
