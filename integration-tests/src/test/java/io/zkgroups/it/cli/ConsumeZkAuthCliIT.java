package io.zkgroups.it.cli;

import io.zkgroups.embedded.EmbeddedKafka;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code consume --zk-auth}: {@code /consumers} is writable by alice only, so the console consumer can join (and
 * remove its generated group) only with her credentials, like every other command that writes.
 */
@Timeout(180)
class ConsumeZkAuthCliIT {

    private static CliCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = CliCluster.start();
        cluster.kafka.createTopic("guarded", 1);
        cluster.kafka.produce("guarded", EmbeddedKafka.Record.of("k", "a"), EmbeddedKafka.Record.of("k", "b"));
        Id alice = new Id("digest", DigestAuthenticationProvider.generateDigest("alice:secret"));
        cluster.curator.setACL().withACL(List.of(new ACL(ZooDefs.Perms.ALL, alice),
                new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath(CliCluster.CHROOT + "/consumers");
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void withTheCredentialsItConsumesAndRemovesItsGeneratedGroup() throws Exception {
        CliCluster.Run run = cluster.cli("consume", "--topic", "guarded", "--from-beginning", "--max-messages", "2",
                "--zk-auth", "alice:secret");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out().lines()).containsExactly("a", "b");
        assertThat(cluster.curator.getChildren().forPath(CliCluster.CHROOT + "/consumers")).isEmpty();
    }

    @Test
    void withoutThemItFailsSayingZooKeeperRefusedAccess() {
        CliCluster.Run run = cluster.cli("consume", "--group", "no-auth-g", "--topic", "guarded", "--from-beginning",
                "--max-messages", "2", "--timeout", "5s");

        assertThat(run.code()).as(run.toString()).isEqualTo(5);
        assertThat(run.err()).contains("zkgroups: ").contains("--zk-auth");
        assertThat(run.out()).isEmpty();
    }
}
