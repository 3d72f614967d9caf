package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;

class StartUpWarmUpTest {

    @Test
    void nothingListeningWhereItLooksOnlyMeansLessWarmUp() {
        // a waiting successor warms up before its ticket comes; a broker or ZooKeeper it cannot reach then must not
        // stop it from waiting (the real start reports what is wrong)
        ZkConsumerConfig config = ZkConsumerConfig.from(Map.of(
                "group.id", "g",
                "zookeeper.connect", "127.0.0.1:1",
                "zookeeper.connection.timeout.ms", "500",
                "bootstrap.servers", "127.0.0.1:1"));
        assertThatCode(() -> StartUpWarmUp.run(config)).doesNotThrowAnyException();
    }
}
