package io.zkgroups.it.consumer;

/** {@link OldBrokerContract} against a real Kafka 2.4 broker (servers/kafka-2.4) on Java 8. */
class Kafka24BrokerIT extends OldBrokerContract {

    @Override
    String release() {
        return "2.4";
    }

    @Override
    String module() {
        return "kafka24";
    }
}
