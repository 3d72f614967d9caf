package io.zkgroups.tool.ui;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where and how {@code zkgroups ui} serves, and the guard it starts behind: bound to a loopback address it may serve
 * plain HTTP without a credential; bound beyond loopback it needs TLS ({@code keystore}) and a credential (basic auth
 * or a client certificate), unless {@code allowOpen} says explicitly that it may run open.
 *
 * @param keystore        PKCS12 keystore with the server's key and certificate (TLS); null for plain HTTP
 * @param keystorePassword its password
 * @param basicAuth       {@code user:password} a client must present; null for none
 * @param clientTruststore PKCS12 truststore of the CAs whose client certificates are accepted (needs TLS); null for none
 * @param clientTruststorePassword its password
 * @param allowOpen       serve beyond loopback without TLS or a credential
 * @param groups          the groups shown; empty: every group under /consumers
 */
public record UiSettings(String bind, int port, Duration interval, List<String> groups, Path keystore, char[] keystorePassword,
                         String basicAuth, Path clientTruststore, char[] clientTruststorePassword, boolean allowOpen) {

    public boolean tls() {
        return keystore != null;
    }

    public boolean credential() {
        return basicAuth != null || clientTruststore != null;
    }

    /** Why the page must not start with these settings; empty when it may. Pure, apart from resolving {@code bind}. */
    public Optional<String> refusal() {
        if (clientTruststore != null && keystore == null) {
            return Optional.of("--tls-client-truststore needs TLS: give --tls-keystore too");
        }
        if (basicAuth != null && basicAuth.indexOf(':') < 1) {
            return Optional.of("the basic-auth file must hold one line user:password");
        }
        if (loopback(bind) || allowOpen || (tls() && credential())) {
            return Optional.empty();
        }
        String missing = !tls() && !credential() ? "TLS (--tls-keystore) and a credential (--basic-auth-file or "
                + "--tls-client-truststore)" : !tls() ? "TLS (--tls-keystore)" : "a credential (--basic-auth-file or "
                + "--tls-client-truststore)";
        return Optional.of("refusing to serve the page on " + bind + ", beyond loopback, without " + missing
                + ": anyone who reaches this address would read every group. Bind 127.0.0.1 (the default), add them, or "
                + "pass --allow-open to serve it open on purpose");
    }

    /** Whether {@code bind} is a loopback address (a name resolves; an unresolvable name is not loopback). */
    static boolean loopback(String bind) {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
