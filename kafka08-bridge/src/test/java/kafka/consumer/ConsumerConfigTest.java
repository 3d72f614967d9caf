package kafka.consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerConfigTest {

    @AfterEach
    void clearSystemProperties() {
        System.clearProperty("zkgroups.consumer.bootstrap.servers");
        System.clearProperty("zkgroups.consumer.group.id");
    }

    private static Properties minimal() {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", "127.0.0.1:2181/kafka");
        props.setProperty("group.id", "g");
        return props;
    }

    @Test
    void unsetPropertiesHave082Defaults() {
        ConsumerConfig config = new ConsumerConfig(minimal());
        assertThat(config.groupId()).isEqualTo("g");
        assertThat(config.consumerId()).isEmpty();
        assertThat(config.zkConnect()).isEqualTo("127.0.0.1:2181/kafka");
        assertThat(config.zkSessionTimeoutMs()).isEqualTo(6000);
        assertThat(config.zkConnectionTimeoutMs()).isEqualTo(6000);
        assertThat(config.autoCommitEnable()).isTrue();
        assertThat(config.autoCommitIntervalMs()).isEqualTo(60_000);
        assertThat(config.queuedMaxMessages()).isEqualTo(2);
        assertThat(config.consumerTimeoutMs()).isEqualTo(-1);
        assertThat(config.autoOffsetReset()).isEqualTo("largest");
        assertThat(config.rebalanceMaxRetries()).isEqualTo(4);
        assertThat(config.rebalanceBackoffMs()).as("defaults to zookeeper.sync.time.ms").isEqualTo(2000);
        assertThat(config.offsetsStorage()).isEqualTo("zookeeper");
        assertThat(config.dualCommitEnabled()).isFalse();
        assertThat(config.clientId()).as("defaults to group.id").isEqualTo("g");
        assertThat(config.partitionAssignmentStrategy()).isEqualTo("range");
        assertThat(config.excludeInternalTopics()).isTrue();
    }

    @Test
    void givenPropertiesAreRead() {
        Properties props = minimal();
        props.setProperty("consumer.id", "c1");
        props.setProperty("auto.commit.enable", "false");
        props.setProperty("consumer.timeout.ms", "250");
        props.setProperty("queued.max.message.chunks", "10");
        props.setProperty("partition.assignment.strategy", "roundrobin");
        ConsumerConfig config = new ConsumerConfig(props);
        assertThat(config.consumerId()).isEqualTo(Optional.of("c1"));
        assertThat(config.autoCommitEnable()).isFalse();
        assertThat(config.consumerTimeoutMs()).isEqualTo(250);
        assertThat(config.queuedMaxMessages()).isEqualTo(10);
        assertThat(config.partitionAssignmentStrategy()).isEqualTo("roundrobin");
    }

    @Test
    void theConnectorsOwnConsumerNeverAutoCommitsByItself() {
        ConsumerConfig config = new ConsumerConfig(minimal());
        assertThat(config.autoCommitEnable()).isTrue();
        assertThat(config.consumerConfig().autoCommit()).as("the connector commits what its streams handed out").isFalse();
    }

    @Test
    void theConnectorsConsumerIsCappedAsAnAutoCommittingConsumerIs() {
        assertThat(new ConsumerConfig(minimal()).consumerConfig().maxUncommittedRecords())
                .as("the connector commits at the cap").isEqualTo(25_000);
        Properties manual = minimal();
        manual.setProperty("auto.commit.enable", "false");
        assertThat(new ConsumerConfig(manual).consumerConfig().maxUncommittedRecords())
                .as("commitOffsets() is the application's: no cap unless it sets one").isZero();
        Properties set = minimal();
        set.setProperty("zkgroups.max.uncommitted.records", "50");
        assertThat(new ConsumerConfig(set).consumerConfig().maxUncommittedRecords()).isEqualTo(50);
    }

    @Test
    void systemPropertiesFillInWhatTheProgramDoesNotSet() {
        System.setProperty("zkgroups.consumer.bootstrap.servers", "127.0.0.1:9092");
        System.setProperty("zkgroups.consumer.group.id", "from-the-command-line");
        ConsumerConfig config = new ConsumerConfig(minimal());
        assertThat(config.props().getProperty("bootstrap.servers")).isEqualTo("127.0.0.1:9092");
        assertThat(config.consumerConfig().bootstrapServers()).contains("127.0.0.1:9092");
        assertThat(config.groupId()).as("the program's own value wins").isEqualTo("g");
    }

    @Test
    void missingRequiredPropertiesAreNamed() {
        Properties noZk = new Properties();
        noZk.setProperty("group.id", "g");
        assertThatThrownBy(() -> new ConsumerConfig(noZk)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zookeeper.connect");
    }
}
