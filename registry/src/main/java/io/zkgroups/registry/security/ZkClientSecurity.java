package io.zkgroups.registry.security;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.ZkLayout;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.client.ZKClientConfig;

import javax.security.auth.login.Configuration;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * How one ZooKeeper client authenticates and encrypts: TLS, SASL, digest credentials and the ACLs of what it
 * creates. Read from Kafka 3.x's names ({@code zookeeper.ssl.client.enable}, {@code zookeeper.ssl.keystore.location},
 * {@code zookeeper.clientCnxnSocket}, {@code zookeeper.set.acl}, ...), ZooKeeper's own client SASL keys
 * ({@code zookeeper.sasl.*}) and an optional {@code zookeeper.client.config} file of ZooKeeper client properties
 * (Kafka's names win over the file's).
 * <p>
 * Everything goes into a {@link ZKClientConfig} of this client alone, never into System properties, so clients
 * with different settings can live in one JVM. The one JVM-wide piece is SASL's JAAS file
 * ({@code -Djava.security.auth.login.config}): that is how ZooKeeper's client logs in, as in Kafka.
 * <p>
 * Values are checked when parsed: a bad boolean, a missing key store or a wrong key store password fails at once,
 * naming the key and where it came from, instead of a connection that never comes up.
 */
public final class ZkClientSecurity {

    public static final String CLIENT_CONFIG_FILE = "zookeeper.client.config";
    public static final String CLIENT_CNXN_SOCKET = "zookeeper.clientCnxnSocket";
    public static final String SSL_CLIENT_ENABLE = "zookeeper.ssl.client.enable";
    public static final String SSL_KEYSTORE_LOCATION = "zookeeper.ssl.keystore.location";
    public static final String SSL_KEYSTORE_PASSWORD = "zookeeper.ssl.keystore.password";
    public static final String SSL_KEYSTORE_TYPE = "zookeeper.ssl.keystore.type";
    public static final String SSL_TRUSTSTORE_LOCATION = "zookeeper.ssl.truststore.location";
    public static final String SSL_TRUSTSTORE_PASSWORD = "zookeeper.ssl.truststore.password";
    public static final String SSL_TRUSTSTORE_TYPE = "zookeeper.ssl.truststore.type";
    public static final String SSL_ENDPOINT_IDENTIFICATION = "zookeeper.ssl.endpoint.identification.algorithm";
    public static final String SET_ACL = "zookeeper.set.acl";
    /** zkgroups' own key: digest credentials {@code user:password}, as ZooKeeper's {@code addauth digest}. */
    public static final String DIGEST_AUTH = "zkgroups.zookeeper.auth";

    static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";
    private static final String ZK_KEYSTORE = "zookeeper.ssl.keyStore.";
    private static final String ZK_TRUSTSTORE = "zookeeper.ssl.trustStore.";
    private static final String ZK_HOSTNAME_VERIFICATION = "zookeeper.ssl.hostnameVerification";

    /** Kafka 3.x's ZooKeeper client keys and the ZooKeeper client property each one sets. */
    private static final Map<String, String> KAFKA_TO_ZOOKEEPER = kafkaNames();

    /** ZooKeeper's FIPS mode (default true since 3.8): it forbids SASL DIGEST-MD5, so that needs it false. */
    public static final String FIPS_MODE = "zookeeper.fips-mode";

    /** ZooKeeper's own client SASL keys and its FIPS mode: passed on as they are. */
    private static final Set<String> SASL_KEYS = Immutable.setOf(
            ZKClientConfig.ENABLE_CLIENT_SASL_KEY, ZKClientConfig.LOGIN_CONTEXT_NAME_KEY,
            ZKClientConfig.ZK_SASL_CLIENT_USERNAME, ZKClientConfig.ZK_SASL_CLIENT_CANONICALIZE_HOSTNAME,
            ZKClientConfig.ZOOKEEPER_SERVER_REALM, ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL, FIPS_MODE);

    private static final Set<String> BOOLEAN_KEYS = Immutable.setOf(SSL_CLIENT_ENABLE, SET_ACL, FIPS_MODE, "zookeeper.ssl.crl.enable",
            "zookeeper.ssl.ocsp.enable", ZKClientConfig.ENABLE_CLIENT_SASL_KEY,
            ZKClientConfig.ZK_SASL_CLIENT_CANONICALIZE_HOSTNAME);

    private static final ZkClientSecurity NONE = new ZkClientSecurity(Collections.emptyMap(), false, null);

    /** ZooKeeper client properties, by ZooKeeper's names. */
    private final Map<String, String> zookeeperProperties;
    private final boolean setAcl;
    private final String digest;

    private ZkClientSecurity(Map<String, String> zookeeperProperties, boolean setAcl, String digest) {
        this.zookeeperProperties = Collections.unmodifiableMap(new TreeMap<>(zookeeperProperties));
        this.setAcl = setAcl;
        this.digest = digest;
    }

    /** Nothing configured: a plaintext, unauthenticated client with open ACLs (ZooKeeper's defaults). */
    public static ZkClientSecurity none() {
        return NONE;
    }

    /** Whether {@code key} is one of the keys {@link #parse} reads. */
    public static boolean isSecurityKey(String key) {
        return KAFKA_TO_ZOOKEEPER.containsKey(key) || SASL_KEYS.contains(key) || key.equals(CLIENT_CONFIG_FILE)
                || key.equals(SET_ACL) || key.equals(DIGEST_AUTH);
    }

    /**
     * Reads the security keys of {@code properties} (others are ignored).
     *
     * @param origin where the properties come from, for error messages (e.g. {@code "consumer properties"})
     * @throws IllegalArgumentException naming the key, the value and {@code origin} of the first bad setting
     */
    public static ZkClientSecurity parse(Map<String, ?> properties, String origin) {
        Objects.requireNonNull(properties, "properties cannot be null");
        Map<String, String> given = new TreeMap<>();
        properties.forEach((key, value) -> {
            if (isSecurityKey(key) && value != null) {
                given.put(key, value.toString().trim());
            }
        });
        for (String key : BOOLEAN_KEYS) {
            String value = given.get(key);
            if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                throw bad(key, value, origin, "must be true or false");
            }
        }

        Map<String, String> zk = new LinkedHashMap<>();
        String file = given.get(CLIENT_CONFIG_FILE);
        if (file != null) {
            zk.putAll(readClientConfigFile(file, origin));
        }
        given.forEach((key, value) -> {
            if (KAFKA_TO_ZOOKEEPER.containsKey(key)) {
                zk.put(KAFKA_TO_ZOOKEEPER.get(key), zookeeperValue(key, value, origin));
            } else if (SASL_KEYS.contains(key)) {
                zk.put(key, value);
            }
        });
        checkTls(zk, origin);

        String digest = given.get(DIGEST_AUTH);
        if (digest != null) {
            if (digest.indexOf(':') <= 0) {
                throw new IllegalArgumentException(DIGEST_AUTH + " in " + origin + " must be user:password");
            }
        }
        ZkClientSecurity security = new ZkClientSecurity(zk, Boolean.parseBoolean(given.get(SET_ACL)), digest);
        security.checkAclIdentity(origin);
        return security;
    }

    /** Whether the client talks TLS to ZooKeeper. */
    public boolean tls() {
        return Boolean.parseBoolean(zookeeperProperties.get(ZKClientConfig.SECURE_CLIENT));
    }

    /** Whether the group znodes this client creates are writable only by its identity ({@link GroupAclProvider}). */
    public boolean setAcl() {
        return setAcl;
    }

    /** The user of the digest credentials, if any. */
    public Optional<String> digestUser() {
        return Optional.ofNullable(digest).map(d -> d.substring(0, d.indexOf(':')));
    }

    /** The ZooKeeper client properties this sets, by ZooKeeper's names (passwords included: do not log). */
    public Map<String, String> zookeeperProperties() {
        return zookeeperProperties;
    }

    /**
     * A new ZooKeeper client configuration: ZooKeeper's defaults and System properties, then these settings; without
     * ZooKeeper's TLS set-up when no TLS System property asks for it ({@link PlainZkClientConfig}).
     */
    public ZKClientConfig clientConfig() {
        ZKClientConfig config = new PlainZkClientConfig();
        zookeeperProperties.forEach(config::setProperty);
        return config;
    }

    /** Configures {@code builder}'s client: its own ZKClientConfig, digest credentials, and ACLs if asked. */
    public CuratorFrameworkFactory.Builder applyTo(CuratorFrameworkFactory.Builder builder, ZkLayout layout) {
        builder.zkClientConfig(clientConfig());
        if (digest != null) {
            builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        if (setAcl) {
            builder.aclProvider(new GroupAclProvider(layout));
        }
        return builder;
    }

    /** A one-line summary without secrets, e.g. {@code "TLS, client certificate, digest user alice, ACLs"}. */
    public String describe() {
        StringBuilder s = new StringBuilder(tls() ? "TLS" : "plaintext");
        if (tls() && zookeeperProperties.containsKey(ZK_KEYSTORE + "location")) {
            s.append(", client certificate");
        }
        if (jaasSectionPresent()) {
            s.append(", SASL (JAAS section ").append(jaasSection()).append(')');
        }
        digestUser().ifPresent(user -> s.append(", digest user ").append(user));
        if (setAcl) {
            s.append(", ").append(SET_ACL).append("=true");
        }
        return s.toString();
    }

    private static Map<String, String> readClientConfigFile(String file, String origin) {
        Path path = Paths.get(file);
        if (!Files.isRegularFile(path)) {
            throw bad(CLIENT_CONFIG_FILE, file, origin, "no such file");
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(path)) {
            props.load(in);
        } catch (IOException | IllegalArgumentException e) {
            throw bad(CLIENT_CONFIG_FILE, file, origin, "cannot be read: " + e.getMessage());
        }
        Map<String, String> zk = new LinkedHashMap<>();
        props.stringPropertyNames().forEach(k -> zk.put(k, props.getProperty(k).trim()));
        return zk;
    }

    private static String zookeeperValue(String kafkaKey, String value, String origin) {
        if (kafkaKey.equals(SSL_ENDPOINT_IDENTIFICATION)) {
            // Kafka's HTTPS / empty becomes ZooKeeper's hostname verification on / off
            if (value.equalsIgnoreCase("https")) {
                return "true";
            }
            if (value.isEmpty()) {
                return "false";
            }
            throw bad(kafkaKey, value, origin, "must be HTTPS (verify the server's host name) or empty (do not)");
        }
        return value;
    }

    private static void checkTls(Map<String, String> zk, String origin) {
        boolean tls = Boolean.parseBoolean(zk.get(ZKClientConfig.SECURE_CLIENT));
        String socket = zk.get(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
        if (!tls) {
            for (String store : new String[]{ZK_KEYSTORE, ZK_TRUSTSTORE}) {
                if (zk.containsKey(store + "location")) {
                    throw new IllegalArgumentException("a " + (store.equals(ZK_KEYSTORE) ? "key" : "trust")
                            + " store is configured but TLS is off in " + origin + ": set " + SSL_CLIENT_ENABLE
                            + "=true to connect over TLS");
                }
            }
            return;
        }
        if (socket == null) {
            // ZooKeeper's default NIO socket has no TLS: Netty is the only choice
            zk.put(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, NETTY_SOCKET);
        } else if (!socket.equals(NETTY_SOCKET)) {
            throw bad(CLIENT_CNXN_SOCKET, socket, origin, "TLS needs " + NETTY_SOCKET);
        }
        checkStore(zk, ZK_KEYSTORE, SSL_KEYSTORE_LOCATION, origin);
        checkStore(zk, ZK_TRUSTSTORE, SSL_TRUSTSTORE_LOCATION, origin);
    }

    /** Opens the store as ZooKeeper will, so a wrong path or password fails now with its name. */
    private static void checkStore(Map<String, String> zk, String prefix, String kafkaKey, String origin) {
        String location = zk.get(prefix + "location");
        if (location == null || location.isEmpty()) {
            return;
        }
        Path path = Paths.get(location);
        if (!Files.isReadable(path)) {
            throw bad(kafkaKey, location, origin, "no such readable file");
        }
        String type = storeType(zk.get(prefix + "type"), location);
        if (type == null) {
            return; // PEM and others: ZooKeeper reads them itself
        }
        String password = zk.getOrDefault(prefix + "password", "");
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore.getInstance(type).load(in, password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw bad(kafkaKey, location, origin, "cannot be opened as " + type + " with the configured password: "
                    + e.getMessage());
        }
    }

    /** The KeyStore type of a JKS or PKCS12 store (from its type or file name), null for other formats. */
    private static String storeType(String type, String location) {
        String t = type == null || type.isEmpty() ? extension(location) : type.toLowerCase(Locale.ROOT);
        switch (t) {
            case "jks":
                return "JKS";
            case "pkcs12":
            case "p12":
            case "pfx":
                return "PKCS12";
            default:
                return null;
        }
    }

    private static String extension(String location) {
        int dot = location.lastIndexOf('.');
        return dot < 0 ? "" : location.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /** CREATOR_ALL needs an authenticated identity: without one every create would fail with InvalidACL. */
    private void checkAclIdentity(String origin) {
        if (!setAcl) {
            return;
        }
        boolean certificate = tls() && zookeeperProperties.containsKey(ZK_KEYSTORE + "location");
        if (digest == null && !certificate && !jaasSectionPresent()) {
            throw new IllegalArgumentException(SET_ACL + "=true in " + origin + " needs an authenticated identity: "
                    + "a JAAS file with a '" + jaasSection() + "' section (-Djava.security.auth.login.config) for SASL, "
                    + DIGEST_AUTH + " (or --zk-auth) for digest, or a TLS client certificate ("
                    + SSL_KEYSTORE_LOCATION + ")");
        }
    }

    private boolean saslEnabled() {
        return !"false".equalsIgnoreCase(zookeeperProperties.getOrDefault(ZKClientConfig.ENABLE_CLIENT_SASL_KEY,
                System.getProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "true")));
    }

    private String jaasSection() {
        return zookeeperProperties.getOrDefault(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY,
                System.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, ZKClientConfig.LOGIN_CONTEXT_NAME_KEY_DEFAULT));
    }

    /** Whether ZooKeeper's client will log in with SASL: enabled, and the JVM's JAAS config has the section. */
    private boolean jaasSectionPresent() {
        if (!saslEnabled() || System.getProperty("java.security.auth.login.config") == null) {
            return false;
        }
        try {
            return Configuration.getConfiguration().getAppConfigurationEntry(jaasSection()) != null;
        } catch (SecurityException e) {
            return false;
        }
    }

    private static IllegalArgumentException bad(String key, String value, String origin, String why) {
        String shown = key.endsWith("password") ? "(hidden)" : "'" + value + "'";
        return new IllegalArgumentException("invalid value " + shown + " for " + key + " in " + origin + ": " + why);
    }

    private static Map<String, String> kafkaNames() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CLIENT_CNXN_SOCKET, ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
        m.put(SSL_CLIENT_ENABLE, ZKClientConfig.SECURE_CLIENT);
        m.put(SSL_KEYSTORE_LOCATION, ZK_KEYSTORE + "location");
        m.put(SSL_KEYSTORE_PASSWORD, ZK_KEYSTORE + "password");
        m.put(SSL_KEYSTORE_TYPE, ZK_KEYSTORE + "type");
        m.put(SSL_TRUSTSTORE_LOCATION, ZK_TRUSTSTORE + "location");
        m.put(SSL_TRUSTSTORE_PASSWORD, ZK_TRUSTSTORE + "password");
        m.put(SSL_TRUSTSTORE_TYPE, ZK_TRUSTSTORE + "type");
        m.put("zookeeper.ssl.protocol", "zookeeper.ssl.protocol");
        m.put("zookeeper.ssl.enabled.protocols", "zookeeper.ssl.enabledProtocols");
        m.put("zookeeper.ssl.cipher.suites", "zookeeper.ssl.ciphersuites");
        m.put(SSL_ENDPOINT_IDENTIFICATION, ZK_HOSTNAME_VERIFICATION);
        m.put("zookeeper.ssl.crl.enable", "zookeeper.ssl.crl");
        m.put("zookeeper.ssl.ocsp.enable", "zookeeper.ssl.ocsp");
        return Collections.unmodifiableMap(m);
    }
}
