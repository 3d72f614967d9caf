package io.zkgroups.registry.security;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.testing.TestKeyStores;
import io.zkgroups.testing.ChildZooKeeperServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** TLS to a real ZooKeeper server (in a child JVM, with a Netty secure client port and mutual TLS). */
@Timeout(120)
class ZooKeeperTlsIT {

    @TempDir
    static Path dir;
    static TestKeyStores stores;
    static ChildZooKeeperServer server;

    @BeforeAll
    static void start() {
        stores = TestKeyStores.generate(dir);
        server = ChildZooKeeperServer.start(ChildZooKeeperServer.settings().withTls(stores));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Map<String, String> tlsProperties() {
        Map<String, String> props = new HashMap<>();
        props.put("zookeeper.ssl.client.enable", "true");
        props.put("zookeeper.ssl.keystore.location", stores.keyStore().toString());
        props.put("zookeeper.ssl.keystore.password", stores.password());
        props.put("zookeeper.ssl.truststore.location", stores.trustStore().toString());
        props.put("zookeeper.ssl.truststore.password", stores.password());
        return props;
    }

    private static CuratorFramework client(String connect, ZkClientSecurity security, int connectMs) {
        CuratorFramework client = security.applyTo(CuratorFrameworkFactory.builder()
                .connectString(connect).sessionTimeoutMs(10_000).connectionTimeoutMs(connectMs)
                .retryPolicy(new ExponentialBackoffRetry(100, 3)), ZkLayout.root()).build();
        client.start();
        return client;
    }

    @Test
    void aClientWithTheKafkaStyleTlsKeysWorksOverTheSecurePort() throws Exception {
        Map<String, String> props = tlsProperties();
        props.put("zookeeper.set.acl", "true");
        ZkClientSecurity security = ZkClientSecurity.parse(props, "test");
        try (CuratorFramework client = client(server.secureConnectString(), security, 30_000)) {
            assertThat(client.blockUntilConnected(60, TimeUnit.SECONDS)).as("TLS connection to %s", server).isTrue();
            client.create().creatingParentsIfNeeded().forPath("/consumers/tls-group/offsets/t/0",
                    "5".getBytes(StandardCharsets.UTF_8));
            assertThat(client.getData().forPath("/consumers/tls-group/offsets/t/0")).asString().isEqualTo("5");
            // the server authenticated the client by its certificate (x509): that identity owns the znode
            List<ACL> acl = client.getACL().forPath("/consumers/tls-group/offsets/t/0");
            assertThat(acl).contains(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
            assertThat(acl).anySatisfy(a -> assertThat(a.getId()).isEqualTo(new Id("x509", "CN=localhost")));
        }
        // curator-test sets a few zookeeper.* System properties of its own; none of the client's may appear
        assertThat(System.getProperties().stringPropertyNames()).noneMatch(k -> k.startsWith("zookeeper.ssl.")
                || k.equals("zookeeper.client.secure") || k.equals("zookeeper.clientCnxnSocket"));
    }

    @Test
    void aClientConfigFileAloneWorksToo() throws Exception {
        Path file = dir.resolve("zk-client.properties");
        java.nio.file.Files.writeString(file, """
                zookeeper.client.secure=true
                zookeeper.ssl.keyStore.location=%1$s
                zookeeper.ssl.keyStore.password=%3$s
                zookeeper.ssl.trustStore.location=%2$s
                zookeeper.ssl.trustStore.password=%3$s
                """.formatted(stores.keyStore(), stores.trustStore(), stores.password()));
        ZkClientSecurity security = ZkClientSecurity.parse(Map.of("zookeeper.client.config", file.toString()), "test");
        try (CuratorFramework client = client(server.secureConnectString(), security, 30_000)) {
            assertThat(client.blockUntilConnected(60, TimeUnit.SECONDS)).isTrue();
            assertThat(client.checkExists().forPath("/")).isNotNull();
        }
    }

    @Test
    void thePlaintextClientThatWorksOnThePlainPortGetsNoSessionOnTheSecurePort() throws Exception {
        try (CuratorFramework plain = client(server.connectString(), ZkClientSecurity.none(), 30_000)) {
            assertThat(plain.blockUntilConnected(60, TimeUnit.SECONDS)).isTrue();
        }
        try (CuratorFramework plain = client(server.secureConnectString(), ZkClientSecurity.none(), 1_000)) {
            // bounded: the server drops the plaintext handshake, the client retries until the wait ends
            assertThat(plain.blockUntilConnected(2, TimeUnit.SECONDS)).isFalse();
        }
    }
}
