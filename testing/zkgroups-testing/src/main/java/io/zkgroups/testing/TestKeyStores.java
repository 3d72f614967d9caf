package io.zkgroups.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 made with the JDK's {@code keytool}: a PKCS12 key store holding the key
 * and a PKCS12 trust store holding the certificate. Server and client use the same pair (mutual TLS).
 *
 * @param keyStore   PKCS12 key store with the private key and its certificate
 * @param trustStore PKCS12 trust store with the certificate
 * @param password   the password of both
 */
public record TestKeyStores(Path keyStore, Path trustStore, String password) {

    /** Generates the stores in {@code dir} (an EC key: a few hundred ms). */
    public static TestKeyStores generate(Path dir) {
        String password = "zkgroups-test";
        Path keyStore = dir.resolve("keystore.p12");
        Path trustStore = dir.resolve("truststore.p12");
        Path cert = dir.resolve("cert.pem");
        keytool("-genkeypair", "-alias", "zk", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-rfc", "-alias", "zk", "-keystore", keyStore.toString(), "-storepass", password,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "zk", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", password);
        return new TestKeyStores(keyStore, trustStore, password);
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run keytool: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }

    /** Writes a ZooKeeper client configuration (as for {@code --zk-tls-config-file}) for mutual TLS with this pair. */
    public Path writeZooKeeperClientConfig(Path file) throws IOException {
        Files.writeString(file, """
                zookeeper.ssl.client.enable=true
                zookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty
                zookeeper.ssl.keystore.location=%1$s
                zookeeper.ssl.keystore.password=%3$s
                zookeeper.ssl.truststore.location=%2$s
                zookeeper.ssl.truststore.password=%3$s
                """.formatted(keyStore, trustStore, password));
        return file;
    }
}
