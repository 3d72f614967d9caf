package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZkConsumerConfigTest {

    private static Map<String, Object> base() {
        Map<String, Object> p = new HashMap<>();
        p.put("zookeeper.connect", "127.0.0.1:2181/kafka");
        p.put("group.id", "orders");
        return p;
    }

    private static ZkConsumerConfig with(String key, String value) {
        Map<String, Object> p = base();
        p.put(key, value);
        return ZkConsumerConfig.from(p);
    }

    @Test
    void theDebounceIsZeroByDefaultAndMayBeSetButNotNegative() {
        assertThat(ZkConsumerConfig.from(base()).rebalanceDebounce()).isZero();
        assertThat(with(ZkConsumerConfig.REBALANCE_DEBOUNCE_MS, "5").rebalanceDebounce()).isEqualTo(java.time.Duration.ofMillis(5));
        assertThatThrownBy(() -> with(ZkConsumerConfig.REBALANCE_DEBOUNCE_MS, "-1"))
                .hasMessageContaining("zkgroups.rebalance.debounce.ms").hasMessageContaining("must not be negative");
    }

    @Test
    void defaultsAreThoseOf082() {
        ZkConsumerConfig config = ZkConsumerConfig.from(base());
        assertThat(config.sessionTimeoutMs()).isEqualTo(6000);
        assertThat(config.connectionTimeoutMs()).isEqualTo(6000);
        assertThat(config.rebalanceBackoff().toMillis()).isEqualTo(2000);
        assertThat(config.autoCommit()).isTrue();
        assertThat(config.autoCommitInterval().toMillis()).isEqualTo(60000);
        assertThat(config.offsetsStorage()).isEqualTo(ZkConsumerConfig.OffsetsStorage.ZOOKEEPER);
        assertThat(config.dualCommit()).isFalse();
        assertThat(config.resetPolicy()).isEqualTo(ZkConsumerConfig.ResetPolicy.LATEST);
        assertThat(config.assignmentStrategy()).isEqualTo("range");
        assertThat(config.excludeInternalTopics()).isTrue();
        assertThat(config.get("client.id")).isEqualTo("orders");
    }

    @Test
    void dualCommitDefaultsToTrueOnlyWithKafkaStorage() {
        assertThat(with("offsets.storage", "kafka").dualCommit()).isTrue();
        assertThat(with("offsets.storage", "KAFKA").dualCommit()).isTrue();
        Map<String, Object> p = base();
        p.put("offsets.storage", "kafka");
        p.put("dual.commit.enabled", "false");
        assertThat(ZkConsumerConfig.from(p).dualCommit()).isFalse();
        assertThat(with("dual.commit.enabled", "true").dualCommit()).as("zookeeper storage never dual-commits").isFalse();
    }

    @ParameterizedTest
    @CsvSource({"smallest, EARLIEST", "earliest, EARLIEST", "largest, LATEST", "latest, LATEST", "none, NONE"})
    void resetPoliciesOfBothGenerationsAreAccepted(String value, ZkConsumerConfig.ResetPolicy expected) {
        assertThat(with("auto.offset.reset", value).resetPolicy()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
            "auto.offset.reset, sometimes",
            "offsets.storage, cassandra",
            "zookeeper.session.timeout.ms, 6s",
            "zookeeper.session.timeout.ms, -1",
            "auto.commit.enable, yes",
            "partition.assignment.strategy, RoundRobin",
            "zkgroups.streams.per.topic, 0",
            "consumer.id, a/b",
            "client.id, with space"})
    void badValuesFailNamingKeyAndValue(String key, String value) {
        assertThatThrownBy(() -> with(key, value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(value);
    }

    @Test
    void missingRequiredPropertiesAreNamed() {
        Map<String, Object> p = base();
        p.remove("zookeeper.connect");
        assertThatThrownBy(() -> ZkConsumerConfig.from(p)).hasMessageContaining("zookeeper.connect");
        Map<String, Object> q = base();
        q.remove("group.id");
        assertThatThrownBy(() -> ZkConsumerConfig.from(q)).hasMessageContaining("group.id");
    }

    @Test
    void unknownKeysAndKafkaGroupKeysOnlyWarn() {
        Map<String, Object> p = base();
        p.put("mirror.topics.whitelist", "x");
        p.put("enable.auto.commit", "true");
        ZkConsumerConfig config = ZkConsumerConfig.from(p);
        assertThat(config.warnings()).anySatisfy(w -> assertThat(w).contains("mirror.topics.whitelist"))
                .anySatisfy(w -> assertThat(w).contains("enable.auto.commit").contains("ZooKeeper"));
    }

    @Test
    void theFetchClientGetsTranslated08SettingsAndNoKafkaGroup() {
        Map<String, Object> p = base();
        p.put("fetch.message.max.bytes", "2097152");
        p.put("fetch.wait.max.ms", "250");
        p.put("auto.offset.reset", "smallest");
        p.put("security.protocol", "SSL");
        p.put("max.poll.records", "1000");
        Map<String, Object> fetch = ZkConsumerConfig.from(p).fetchClientProperties("b1:9092");
        assertThat(fetch).containsEntry("max.partition.fetch.bytes", "2097152")
                .containsEntry("fetch.max.wait.ms", "250")
                .containsEntry("auto.offset.reset", "earliest")
                .containsEntry("security.protocol", "SSL")
                .containsEntry("max.poll.records", "1000")
                .containsEntry("bootstrap.servers", "b1:9092")
                .containsEntry("enable.auto.commit", "false")
                .doesNotContainKey("group.id");
    }

    @Test
    void zooKeeperSecurityKeysAreReadNotIgnored() {
        Map<String, Object> p = base();
        p.put("zookeeper.ssl.client.enable", "false");
        p.put("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        p.put("zookeeper.sasl.client", "false");
        p.put("zkgroups.zookeeper.auth", "alice:secret");
        p.put("zookeeper.set.acl", "true");

        assertThat(ZkConsumerConfig.from(p).warnings()).isEmpty();
    }

    @Test
    void zooKeeperSecuritySettingsReachTheClientConfiguration() {
        Map<String, Object> p = base();
        p.put("zkgroups.zookeeper.auth", "alice:secret");
        p.put("zookeeper.set.acl", "true");
        p.put("zookeeper.sasl.client", "false");

        ZkConsumerConfig config = ZkConsumerConfig.from(p);

        assertThat(config.zooKeeperSecurity().setAcl()).isTrue();
        assertThat(config.zooKeeperSecurity().digestUser()).contains("alice");
        assertThat(config.zooKeeperSecurity().clientConfig().isSaslClientEnabled()).isFalse();
        assertThat(ZkConsumerConfig.from(base()).zooKeeperSecurity().describe()).isEqualTo("plaintext");
    }

    @Test
    void aBadZooKeeperSecurityValueIsAConfigExceptionNamingTheKey() {
        assertThatThrownBy(() -> with("zookeeper.ssl.client.enable", "maybe"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid value 'maybe' for zookeeper.ssl.client.enable in the consumer properties: must be true or false");
        assertThatThrownBy(() -> with("zookeeper.set.acl", "true"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("needs an authenticated identity");
    }

    @Test
    void theRestartGraceDefaultsToTwoThirdsOfTheSessionAndMustStayBelowIt() {
        assertThat(ZkConsumerConfig.from(base()).restartGrace()).isEqualTo(java.time.Duration.ofMillis(4000));
        assertThat(ZkConsumerConfig.from(base()).restartHandoverFile()).isEmpty();
        assertThat(with(ZkConsumerConfig.RESTART_GRACE_MS, "5999").restartGrace().toMillis()).isEqualTo(5999);
        assertThatThrownBy(() -> with(ZkConsumerConfig.RESTART_GRACE_MS, "6000"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(ZkConsumerConfig.RESTART_GRACE_MS).hasMessageContaining("'6000'")
                .hasMessageContaining("zookeeper.session.timeout.ms (6000)");
        assertThatThrownBy(() -> with(ZkConsumerConfig.RESTART_GRACE_MS, "soon"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("must be an integer");
    }
}
