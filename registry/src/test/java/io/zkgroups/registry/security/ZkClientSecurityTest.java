package io.zkgroups.registry.security;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.testing.TestKeyStores;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZkClientSecurityTest {

    @TempDir
    static Path dir;
    static TestKeyStores stores;

    @BeforeAll
    static void keyStores() {
        stores = TestKeyStores.generate(dir);
    }

    private static Map<String, String> tls() {
        Map<String, String> props = new HashMap<>();
        props.put("zookeeper.ssl.client.enable", "true");
        props.put("zookeeper.ssl.keystore.location", stores.keyStore().toString());
        props.put("zookeeper.ssl.keystore.password", stores.password());
        props.put("zookeeper.ssl.truststore.location", stores.trustStore().toString());
        props.put("zookeeper.ssl.truststore.password", stores.password());
        return props;
    }

    @Test
    void kafkaNamesBecomeZooKeeperClientPropertiesWithTheNettySocket() {
        Map<String, String> props = tls();
        props.put("zookeeper.ssl.endpoint.identification.algorithm", "");
        props.put("zookeeper.ssl.enabled.protocols", "TLSv1.3");
        props.put("zookeeper.sasl.client", "false");
        props.put("group.id", "not a security key");

        ZkClientSecurity security = ZkClientSecurity.parse(props, "test properties");

        ZKClientConfig config = security.clientConfig();
        assertThat(security.tls()).isTrue();
        assertThat(config.getProperty(ZKClientConfig.SECURE_CLIENT)).isEqualTo("true");
        assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET))
                .isEqualTo("org.apache.zookeeper.ClientCnxnSocketNetty");
        assertThat(config.getProperty("zookeeper.ssl.keyStore.location")).isEqualTo(stores.keyStore().toString());
        assertThat(config.getProperty("zookeeper.ssl.trustStore.password")).isEqualTo(stores.password());
        assertThat(config.getProperty("zookeeper.ssl.hostnameVerification")).isEqualTo("false");
        assertThat(config.getProperty("zookeeper.ssl.enabledProtocols")).isEqualTo("TLSv1.3");
        assertThat(config.isSaslClientEnabled()).isFalse();
        assertThat(security.describe()).isEqualTo("TLS, client certificate");
    }

    @Test
    void everyClientGetsItsOwnConfigurationAndNoSystemPropertyIsSet() {
        ZkClientSecurity security = ZkClientSecurity.parse(tls(), "test properties");

        ZKClientConfig first = security.clientConfig();
        first.setProperty(ZKClientConfig.SECURE_CLIENT, "false");

        assertThat(security.clientConfig().getProperty(ZKClientConfig.SECURE_CLIENT)).isEqualTo("true");
        // curator-test sets a few zookeeper.* System properties of its own; none of the client's may appear
        assertThat(System.getProperties().stringPropertyNames()).noneMatch(k -> k.startsWith("zookeeper.ssl.")
                || k.equals("zookeeper.client.secure") || k.equals("zookeeper.clientCnxnSocket"));
    }

    @Test
    void aClientConfigFileIsReadAndKafkaNamesWinOverIt() throws IOException {
        Path file = dir.resolve("zk-client.properties");
        Files.writeString(file, """
                zookeeper.client.secure=true
                zookeeper.ssl.trustStore.location=%s
                zookeeper.ssl.trustStore.password=%s
                zookeeper.ssl.hostnameVerification=true
                """.formatted(stores.trustStore(), stores.password()));

        ZkClientSecurity security = ZkClientSecurity.parse(Map.of("zookeeper.client.config", file.toString(),
                "zookeeper.ssl.endpoint.identification.algorithm", ""), "test properties");

        assertThat(security.tls()).isTrue();
        assertThat(security.zookeeperProperties())
                .containsEntry("zookeeper.ssl.trustStore.location", stores.trustStore().toString())
                .containsEntry("zookeeper.ssl.hostnameVerification", "false")
                .containsEntry("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
    }

    @Test
    void badValuesFailNamingKeyValueAndOrigin() {
        assertThatThrownBy(() -> ZkClientSecurity.parse(Map.of("zookeeper.ssl.client.enable", "yes"), "consumer.properties"))
                .hasMessage("invalid value 'yes' for zookeeper.ssl.client.enable in consumer.properties: must be true or false");
        Map<String, String> missing = tls();
        missing.put("zookeeper.ssl.truststore.location", dir.resolve("nope.p12").toString());
        assertThatThrownBy(() -> ZkClientSecurity.parse(missing, "consumer.properties"))
                .hasMessageContaining("zookeeper.ssl.truststore.location")
                .hasMessageContaining("nope.p12")
                .hasMessageContaining("no such readable file");
        Map<String, String> nio = tls();
        nio.put("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNIO");
        assertThatThrownBy(() -> ZkClientSecurity.parse(nio, "consumer.properties"))
                .hasMessageContaining("TLS needs org.apache.zookeeper.ClientCnxnSocketNetty");
        assertThatThrownBy(() -> ZkClientSecurity.parse(Map.of("zookeeper.ssl.endpoint.identification.algorithm", "LDAPS"), "x"))
                .hasMessageContaining("must be HTTPS");
        assertThatThrownBy(() -> ZkClientSecurity.parse(Map.of("zkgroups.zookeeper.auth", "nopassword"), "x"))
                .hasMessage("zkgroups.zookeeper.auth in x must be user:password");
        assertThatThrownBy(() -> ZkClientSecurity.parse(Map.of("zookeeper.client.config", "/no/such/file"), "x"))
                .hasMessageContaining("zookeeper.client.config").hasMessageContaining("no such file");
    }

    @Test
    void aWrongKeyStorePasswordFailsAtOnceWithoutShowingThePassword() {
        Map<String, String> props = tls();
        props.put("zookeeper.ssl.keystore.password", "wrong-secret");

        assertThatThrownBy(() -> ZkClientSecurity.parse(props, "consumer.properties"))
                .hasMessageContaining("zookeeper.ssl.keystore.location")
                .hasMessageContaining("cannot be opened as PKCS12")
                .hasMessageNotContaining("wrong-secret");
    }

    @Test
    void storesWithoutTlsEnabledAreAnErrorNotASilentPlaintextConnection() {
        Map<String, String> props = tls();
        props.remove("zookeeper.ssl.client.enable");

        assertThatThrownBy(() -> ZkClientSecurity.parse(props, "consumer.properties"))
                .hasMessageContaining("TLS is off in consumer.properties")
                .hasMessageContaining("zookeeper.ssl.client.enable=true");
    }

    @Test
    void setAclNeedsAnIdentity() {
        assertThatThrownBy(() -> ZkClientSecurity.parse(Map.of("zookeeper.set.acl", "true"), "consumer.properties"))
                .hasMessageStartingWith("zookeeper.set.acl=true in consumer.properties needs an authenticated identity");

        assertThat(ZkClientSecurity.parse(Map.of("zookeeper.set.acl", "true", "zkgroups.zookeeper.auth", "alice:secret"),
                "x").setAcl()).isTrue();
        Map<String, String> certificate = tls();
        certificate.put("zookeeper.set.acl", "true");
        assertThat(ZkClientSecurity.parse(certificate, "x").describe()).isEqualTo("TLS, client certificate, zookeeper.set.acl=true");
    }

    @Test
    void groupZnodesAreSecuredAndEverythingElseStaysOpen() {
        GroupAclProvider acls = new GroupAclProvider(ZkLayout.root());

        assertThat(acls.getAclForPath("/consumers/g")).isEqualTo(GroupAclProvider.CREATOR_ALL_WORLD_READ);
        assertThat(acls.getAclForPath("/consumers/g/offsets/t/0")).isEqualTo(GroupAclProvider.CREATOR_ALL_WORLD_READ);
        assertThat(acls.getAclForPath("/consumers")).isEqualTo(org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE);
        assertThat(acls.getAclForPath("/consumersX/g")).isEqualTo(org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE);
        assertThat(new GroupAclProvider(ZkLayout.withChroot("/kafka")).getAclForPath("/kafka/consumers/g/ids"))
                .isEqualTo(GroupAclProvider.CREATOR_ALL_WORLD_READ);
    }
}
