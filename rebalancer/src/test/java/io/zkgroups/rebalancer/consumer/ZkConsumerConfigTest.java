package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
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
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("zkgroups.rebalance.debounce.ms").hasMessageContaining("at least 0");
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
    void theUncommittedCapIsOnWithAutoCommitAndTheApplicationsToSetWithout() {
        assertThat(ZkConsumerConfig.from(base()).maxUncommittedRecords()).isEqualTo(25_000);
        assertThat(with("auto.commit.enable", "false").maxUncommittedRecords()).isZero();
        assertThat(with("enable.auto.commit", "false").maxUncommittedRecords()).as("Kafka's name").isZero();
        Map<String, Object> p = base();
        p.put("enable.auto.commit", "false");
        p.put(ZkConsumerConfig.MAX_UNCOMMITTED_RECORDS, "150");
        assertThat(ZkConsumerConfig.from(p).maxUncommittedRecords()).isEqualTo(150);
        assertThatThrownBy(() -> with(ZkConsumerConfig.MAX_UNCOMMITTED_RECORDS, "-1"))
                .hasMessageContaining(ZkConsumerConfig.MAX_UNCOMMITTED_RECORDS);
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
            "client.id, with space",
            "enable.auto.commit, yes",
            "max.partition.fetch.bytes, 0"})
    void badValuesFailWithKafkasConfigExceptionNamingKeyAndValue(String key, String value) {
        assertThatThrownBy(() -> with(key, value))
                .isInstanceOf(ConfigException.class)
                .isInstanceOf(KafkaException.class)
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
    void unknownKeysAndKafkaGroupKeysWithoutEquivalentOnlyWarn() {
        Map<String, Object> p = base();
        p.put("mirror.topics.whitelist", "x");
        p.put("group.instance.id", "i1");
        p.put("heartbeat.interval.ms", "3000");
        ZkConsumerConfig config = ZkConsumerConfig.from(p);
        assertThat(config.warnings()).hasSize(3)
                .anySatisfy(w -> assertThat(w).contains("mirror.topics.whitelist"))
                .anySatisfy(w -> assertThat(w).contains("group.instance.id").contains("zkgroups.restart.handover.file"))
                .anySatisfy(w -> assertThat(w).contains("heartbeat.interval.ms"));
    }

    @ParameterizedTest
    @CsvSource({
            "enable.auto.commit, false, auto.commit.enable, false",
            "session.timeout.ms, 10000, zookeeper.session.timeout.ms, 10000",
            "auto.offset.reset, earliest, auto.offset.reset, earliest",
            "max.partition.fetch.bytes, 4096, fetch.message.max.bytes, 4096",
            "fetch.max.wait.ms, 250, fetch.wait.max.ms, 250",
            "receive.buffer.bytes, 131072, socket.receive.buffer.bytes, 131072",
            "retry.backoff.ms, 500, refresh.leader.backoff.ms, 500"})
    void kafkasNameOfASettingMeansWhatItsZeroEightNameMeans(String kafkaKey, String value, String legacyKey,
                                                             String effective) {
        ZkConsumerConfig config = with(kafkaKey, value);
        assertThat(config.get(legacyKey)).isEqualTo(effective);
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void enableAutoCommitFalseTurnsAutoCommitOff() {
        assertThat(with("enable.auto.commit", "false").autoCommit()).isFalse();
        assertThat(with("enable.auto.commit", "true").autoCommit()).isTrue();
        assertThat(ZkConsumerConfig.from(base()).autoCommit()).isTrue();
    }

    @Test
    void fetchSettingsReachTheFetchClientUnderKafkasNameWhicheverNameSetThem() {
        assertThat(with("max.partition.fetch.bytes", "4096").fetchClientProperties("b:1"))
                .containsEntry("max.partition.fetch.bytes", 4096).doesNotContainKey("fetch.message.max.bytes");
        assertThat(with("fetch.message.max.bytes", "4096").fetchClientProperties("b:1"))
                .containsEntry("max.partition.fetch.bytes", 4096);
        assertThat(ZkConsumerConfig.from(base()).fetchClientProperties("b:1"))
                .as("unset: kafka-clients' defaults").doesNotContainKey("max.partition.fetch.bytes");
    }

    @ParameterizedTest
    @CsvSource({
            "enable.auto.commit, false, auto.commit.enable, true",
            "session.timeout.ms, 10000, zookeeper.session.timeout.ms, 6000",
            "max.partition.fetch.bytes, 4096, fetch.message.max.bytes, 8192",
            "retry.backoff.ms, 100, refresh.leader.backoff.ms, 200"})
    void bothNamesOfASettingWithDifferentValuesAreAnErrorNamingBothKeys(String kafkaKey, String kafkaValue,
                                                                        String legacyKey, String legacyValue) {
        Map<String, Object> p = base();
        p.put(kafkaKey, kafkaValue);
        p.put(legacyKey, legacyValue);
        assertThatThrownBy(() -> ZkConsumerConfig.from(p))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(kafkaKey + "=" + kafkaValue)
                .hasMessageContaining(legacyKey + "=" + legacyValue);
    }

    @Test
    void bothNamesOfASettingWithTheSameValueAreFine() {
        Map<String, Object> p = base();
        p.put("enable.auto.commit", "FALSE");
        p.put("auto.commit.enable", "false");
        assertThat(ZkConsumerConfig.from(p).autoCommit()).isFalse();
    }

    @Test
    void valuesAreTypedOnceAndDerivedDefaultsFollowTheirKeys() {
        Map<String, Object> p = base();
        p.put("zookeeper.session.timeout.ms", 9000);
        p.put("zookeeper.sync.time.ms", " 300 ");
        ZkConsumerConfig config = ZkConsumerConfig.from(p);
        assertThat(config.connectionTimeoutMs()).isEqualTo(9000);
        assertThat(config.rebalanceBackoff()).isEqualTo(java.time.Duration.ofMillis(300));
        assertThat(config.restartGrace()).isEqualTo(java.time.Duration.ofMillis(6000));
        assertThat(config.memberConfig(io.zkgroups.registry.model.ConsumerId.ofOverride("orders", "m"),
                io.zkgroups.registry.model.Subscription.topics(Map.of("t", 1))).initialBackoff())
                .isEqualTo(java.time.Duration.ofMillis(50));
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
        assertThat(fetch).containsEntry("max.partition.fetch.bytes", 2097152)
                .containsEntry("fetch.max.wait.ms", 250)
                .containsEntry("auto.offset.reset", "earliest")
                .containsEntry("security.protocol", "SSL")
                .containsEntry("max.poll.records", "1000")
                .containsEntry("bootstrap.servers", "b1:9092")
                .containsEntry("enable.auto.commit", "false")
                .doesNotContainKey("group.id");
    }

    @Test
    void theInnerClientsPushNoMetricsToTheBrokersUnlessAsked() {
        ZkConsumerConfig unset = ZkConsumerConfig.from(base());
        assertThat(unset.fetchClientProperties("b:1")).containsEntry("enable.metrics.push", "false");
        assertThat(unset.adminProperties("b:1")).containsEntry("enable.metrics.push", "false");
        ZkConsumerConfig asked = with("enable.metrics.push", "true");
        assertThat(asked.fetchClientProperties("b:1")).containsEntry("enable.metrics.push", "true");
        assertThat(asked.adminProperties("b:1")).containsEntry("enable.metrics.push", "true");
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
                .hasMessageContaining(ZkConsumerConfig.RESTART_GRACE_MS).hasMessageContaining("value 6000")
                .hasMessageContaining("zookeeper.session.timeout.ms (6000)");
        assertThatThrownBy(() -> with(ZkConsumerConfig.RESTART_GRACE_MS, "soon"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("soon").hasMessageContaining("INT");
    }
}
