package io.zkgroups.registry.security;

import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.QuorumX509Util;
import org.apache.zookeeper.common.X509Util;
import org.apache.zookeeper.common.ZKConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class PlainZkClientConfigTest {

    private final Properties saved = (Properties) System.getProperties().clone();

    @AfterEach
    void restoreSystemProperties() {
        System.setProperties(saved);
    }

    /** Every property key ZKConfig and ZKClientConfig name in a constant (not their *_DEFAULT values). */
    private static List<String> configKeys() throws IllegalAccessException {
        List<String> keys = new ArrayList<>();
        for (Class<?> type : List.of(ZKConfig.class, ZKClientConfig.class)) {
            for (Field f : type.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isPublic(m) && Modifier.isStatic(m) && f.getType() == String.class
                        && !f.getName().endsWith("_DEFAULT")) {
                    keys.add((String) f.get(null));
                }
            }
        }
        return keys;
    }

    /** The System properties ZooKeeper's X509Utils copy into a configuration: every {@code get...Property()}. */
    private static List<String> tlsKeys() throws ReflectiveOperationException {
        List<String> keys = new ArrayList<>();
        for (X509Util util : List.of(new ClientX509Util(), new QuorumX509Util())) {
            try (util) {
                for (Method m : util.getClass().getMethods()) {
                    if (m.getName().startsWith("get") && m.getName().endsWith("Property") && m.getParameterCount() == 0
                            && m.getReturnType() == String.class) {
                        keys.add((String) m.invoke(util));
                    }
                }
            }
        }
        return keys;
    }

    private static Map<String, String> read(ZKClientConfig config, List<String> keys) {
        Map<String, String> values = new HashMap<>();
        keys.forEach(k -> values.put(k, config.getProperty(k)));
        return values;
    }

    @Test
    void everyKeyZooKeeperCopiesFromSystemPropertiesIsCopiedTheSame() throws Exception {
        List<String> keys = new ArrayList<>(configKeys());
        keys.add(ZkClientSecurity.FIPS_MODE);
        assertThat(keys).containsAll(PlainZkClientConfig.COPIED);
        for (String key : keys) {
            System.setProperty(key, "value of " + key);
        }
        assertThat(PlainZkClientConfig.tlsInSystemProperties()).isFalse();

        assertThat(read(new PlainZkClientConfig(), keys)).isEqualTo(read(new ZKClientConfig(), keys))
                .containsEntry(ZKConfig.JUTE_MAXBUFFER, "value of jute.maxbuffer")
                .containsEntry(ZKClientConfig.SECURE_CLIENT, "value of zookeeper.client.secure");
    }

    @Test
    void whatTheSkippedTlsSetUpWouldCopyIsAllUnderTheTlsPrefix() throws Exception {
        assertThat(tlsKeys()).hasSizeGreaterThan(20).allSatisfy(k -> assertThat(
                k.startsWith(PlainZkClientConfig.SSL_PREFIX) || PlainZkClientConfig.COPIED.contains(k)).as(k).isTrue());
    }

    @Test
    void aTlsSystemPropertyGetsZooKeepersOwnSetUp() throws Exception {
        List<String> keys = new ArrayList<>(configKeys());
        keys.addAll(tlsKeys());
        String keyStore = new ClientX509Util().getSslKeystoreLocationProperty();
        System.setProperty(keyStore, "/etc/zk/client.jks");
        System.setProperty(ZKConfig.JUTE_MAXBUFFER, "4194304");

        PlainZkClientConfig plain = new PlainZkClientConfig();
        assertThat(plain.getProperty(keyStore)).isEqualTo("/etc/zk/client.jks");
        assertThat(read(plain, keys)).isEqualTo(read(new ZKClientConfig(), keys));
    }

    @Test
    void withoutSystemPropertiesItReadsAsZooKeepersDefaults() throws Exception {
        List<String> keys = configKeys();
        keys.forEach(System::clearProperty);
        PlainZkClientConfig plain = new PlainZkClientConfig();
        ZKClientConfig stock = new ZKClientConfig();

        assertThat(read(plain, keys)).isEqualTo(read(stock, keys));
        assertThat(plain.isSaslClientEnabled()).isEqualTo(stock.isSaslClientEnabled()).isTrue();
        assertThat(plain.getJaasConfKey()).isEqualTo(stock.getJaasConfKey());
    }
}
