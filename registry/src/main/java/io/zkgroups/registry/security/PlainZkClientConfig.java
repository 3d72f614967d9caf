package io.zkgroups.registry.security;

import io.zkgroups.registry.Immutable;
import org.apache.zookeeper.client.ZKClientConfig;

import java.util.List;

/**
 * ZooKeeper's client configuration without its TLS set-up at construction. A stock {@link ZKClientConfig} builds two
 * {@code X509Util}s only to copy their {@code zookeeper.ssl.*} (and FIPS) System properties, and the first one
 * initialises the JDK's TLS stack ({@code SSLContext.getDefault()}: ~800 classes, the trust store parsed; 110–200 ms
 * of a fresh process, every CLI run and every member start) even for a client that never speaks TLS.
 * <p>
 * When no System property starts with {@code zookeeper.ssl.}, every value those two would copy is null, so this copies
 * only the others, as ZooKeeper 3.9 does; otherwise it runs ZooKeeper's own code. A TLS client still works either way:
 * its Netty socket builds its own {@code X509Util} when it connects, from this configuration's properties
 * ({@link ZkClientSecurity} sets them here, never as System properties). {@code PlainZkClientConfigTest} holds the
 * two equal for every property ZooKeeper's configuration classes name.
 */
final class PlainZkClientConfig extends ZKClientConfig {

    static final String SSL_PREFIX = "zookeeper.ssl.";

    /**
     * The System properties ZooKeeper 3.9's {@code ZKConfig} and {@code ZKClientConfig} copy, minus the TLS ones; the
     * FIPS switch is copied by the X509Util code but is not under the TLS prefix.
     */
    static final List<String> COPIED = Immutable.listOf(JUTE_MAXBUFFER, KINIT_COMMAND, JGSS_NATIVE, ZkClientSecurity.FIPS_MODE,
            ZK_SASL_CLIENT_USERNAME, ZK_SASL_CLIENT_CANONICALIZE_HOSTNAME, LOGIN_CONTEXT_NAME_KEY,
            ENABLE_CLIENT_SASL_KEY, ZOOKEEPER_SERVER_REALM, DISABLE_AUTO_WATCH_RESET, ZOOKEEPER_CLIENT_CNXN_SOCKET,
            SECURE_CLIENT);

    @Override
    protected void handleBackwardCompatibility() {
        if (tlsInSystemProperties()) {
            super.handleBackwardCompatibility();
            return;
        }
        for (String key : COPIED) {
            setProperty(key, System.getProperty(key));
        }
    }

    static boolean tlsInSystemProperties() {
        return System.getProperties().stringPropertyNames().stream().anyMatch(name -> name.startsWith(SSL_PREFIX));
    }
}
