package io.zkgroups.it.security;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.TestKeyStores;
import io.zkgroups.testing.ChildZooKeeperServer;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The consumer and the CLI against a ZooKeeper that serves TLS (mutual, Netty) on one port; the Kafka broker
 * uses the same server's plaintext port. The consumer's group znodes are created with {@code zookeeper.set.acl}.
 */
@Timeout(240)
class SecureZooKeeperIT {

    @TempDir
    static Path dir;
    static TestKeyStores stores;
    static ChildZooKeeperServer zk;
    static EmbeddedKafka broker;
    static CuratorFramework anonymous;
    static Path tlsConfig;

    @BeforeAll
    static void start() throws Exception {
        stores = TestKeyStores.generate(dir);
        zk = ChildZooKeeperServer.start(ChildZooKeeperServer.settings().withTls(stores));
        broker = EmbeddedKafka.startZooKeeperMode(zk.connectString());
        anonymous = CuratorFrameworkFactory.newClient(zk.connectString(), new ExponentialBackoffRetry(100, 5));
        anonymous.start();
        assertThat(anonymous.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
        tlsConfig = stores.writeZooKeeperClientConfig(dir.resolve("zk-tls.properties"));
    }

    @AfterAll
    static void stop() {
        if (anonymous != null) {
            anonymous.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    private static Properties consumerProperties(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.secureConnectString());
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        p.setProperty("zookeeper.ssl.client.enable", "true");
        p.setProperty("zookeeper.ssl.keystore.location", stores.keyStore().toString());
        p.setProperty("zookeeper.ssl.keystore.password", stores.password());
        p.setProperty("zookeeper.ssl.truststore.location", stores.trustStore().toString());
        p.setProperty("zookeeper.ssl.truststore.password", stores.password());
        return p;
    }

    @Test
    void aConsumerOverTlsWithAclsConsumesCommitsAndOwnsItsGroupZnodes() throws Exception {
        String group = "tls-acl";
        broker.createTopic("secure-t", 1);
        broker.produce("secure-t", EmbeddedKafka.Record.of("k", "a"), EmbeddedKafka.Record.of("k", "b"),
                EmbeddedKafka.Record.of("k", "c"));
        Properties p = consumerProperties(group);
        p.setProperty("zookeeper.set.acl", "true");
        p.setProperty("zkgroups.zookeeper.auth", "alice:secret");
        // no bootstrap.servers: the consumer reads /brokers/ids over TLS

        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (CuratorFramework asAlice = CuratorFrameworkFactory.builder().connectString(zk.connectString())
                .authorization("digest", "alice:secret".getBytes(StandardCharsets.UTF_8))
                .retryPolicy(new ExponentialBackoffRetry(100, 5)).build();
             ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            asAlice.start();
            consumer.subscribe(List.of("secure-t"));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
                return seen.size() >= 3;
            });
            consumer.commitSync();

            String ids = "/consumers/" + group + "/ids";
            List<String> members = anonymous.getChildren().forPath(ids);
            assertThat(members).hasSize(1);
            Id alice = new Id("digest", DigestAuthenticationProvider.generateDigest("alice:secret"));
            Id certificate = new Id("x509", "CN=localhost");
            for (String path : List.of("/consumers/" + group, ids, ids + "/" + members.get(0),
                    "/consumers/" + group + "/owners/secure-t", "/consumers/" + group + "/owners/secure-t/0",
                    "/consumers/" + group + "/offsets", "/consumers/" + group + "/offsets/secure-t",
                    "/consumers/" + group + "/offsets/secure-t/0")) { // the last one created by the fenced commit
                // read as alice: ZooKeeper shows digest ids only to clients with ADMIN on the znode
                assertThat(asAlice.getACL().forPath(path)).as(path).containsExactlyInAnyOrder(
                        new ACL(ZooDefs.Perms.ALL, alice), new ACL(ZooDefs.Perms.ALL, certificate),
                        new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
            }
            // what a 0.8.2.2 consumer of the same group (no credentials) can no longer do: register, claim, commit anew
            for (String path : List.of(ids + "/legacy-member", "/consumers/" + group + "/owners/secure-t/1",
                    "/consumers/" + group + "/offsets/secure-t/1")) {
                assertThatThrownBy(() -> anonymous.create().forPath(path, new byte[0])).as(path)
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
        }
        assertThat(seen).extracting(ConsumerRecord::value).containsExactly("a", "b", "c");
        assertThat(anonymous.getData().forPath("/consumers/" + group + "/offsets/secure-t/0")).asString().isEqualTo("3");
        assertThat(anonymous.getACL().forPath("/consumers")).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
    }

    @Test
    void aConsumerWithoutTheGroupsCredentialsIsRefusedAndToldWhereNotLeftRetrying() throws Exception {
        String group = "acl-denied";
        String ids = "/consumers/" + group + "/ids";
        Id alice = new Id("digest", DigestAuthenticationProvider.generateDigest("alice:secret"));
        try (CuratorFramework asAlice = CuratorFrameworkFactory.builder().connectString(zk.connectString())
                .authorization("digest", "alice:secret".getBytes(StandardCharsets.UTF_8))
                .retryPolicy(new ExponentialBackoffRetry(100, 5)).build()) {
            asAlice.start();
            asAlice.create().creatingParentsIfNeeded().withACL(List.of(new ACL(ZooDefs.Perms.ALL, alice),
                    new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath(ids);
        }
        broker.createTopic("denied-t", 1);
        // over TLS, but without alice's digest: its certificate's id may read the group, not join it
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(consumerProperties(group),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("denied-t"));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThatThrownBy(() -> consumer.poll(Duration.ofMillis(100)))
                            .isInstanceOf(org.apache.kafka.common.KafkaException.class)
                            .hasMessageContaining("NOAUTH").hasMessageContaining(ids));
        }
        assertThat(anonymous.getChildren().forPath(ids)).isEmpty();
    }

    @Test
    void theCliReadsTheGroupOverTlsWithItsTlsConfigFile() throws Exception {
        String group = "tls-cli";
        anonymous.create().creatingParentsIfNeeded().forPath("/consumers/" + group + "/offsets/cli-t/0",
                "17".getBytes(StandardCharsets.US_ASCII));

        Run run = cli("offsets", "export", "--group", group, "--zookeeper", zk.secureConnectString(),
                "--zk-tls-config-file", tlsConfig.toString(), "--timeout", "30s");

        assertThat(run.code).as(run.err).isZero();
        assertThat(run.out).contains("cli-t").contains("17");
    }

    @Test
    void theCliWithoutTlsSaysItCannotConnectAndHints() {
        Run run = cli("groups", "list", "--zookeeper", zk.secureConnectString(), "--timeout", "2s");

        assertThat(run.code).isEqualTo(5);
        assertThat(run.err).contains("cannot connect to ZooKeeper at " + zk.secureConnectString() + " within 2 s (plaintext;")
                .contains("--zk-tls-config-file");
    }

    @Test
    void aMistypedKeyInTheTlsConfigFileIsRefusedNotIgnored() throws IOException {
        Path typo = dir.resolve("typo.properties");
        Files.writeString(typo, "zookeeper.ssl.client.enable=true\nzookeeper.ssl.truststore.locaton=/x\n");

        Run run = cli("groups", "list", "--zookeeper", zk.secureConnectString(), "--zk-tls-config-file", typo.toString());

        assertThat(run.code).isEqualTo(6);
        assertThat(run.err).contains("unknown key zookeeper.ssl.truststore.locaton in --zk-tls-config-file " + typo);
    }

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
