package io.zkgroups.it.consumer;

/** {@link OldBrokerContract} against a real Kafka 1.1 broker (servers/kafka-1.1) on Java 8. */
class Kafka11BrokerIT extends OldBrokerContract {

    @Override
    String release() {
        return "1.1";
    }

    @Override
    String module() {
        return "kafka11";
    }
}
