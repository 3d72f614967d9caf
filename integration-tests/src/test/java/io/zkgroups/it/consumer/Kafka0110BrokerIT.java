package io.zkgroups.it.consumer;

/** {@link OldBrokerContract} against a real Kafka 0.11.0 broker (servers/kafka-0.11.0) on Java 8. */
class Kafka0110BrokerIT extends OldBrokerContract {

    @Override
    String release() {
        return "0.11.0";
    }

    @Override
    String module() {
        return "kafka011";
    }
}
