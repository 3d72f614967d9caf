package io.zkgroups.tool.ui;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class UiSettingsTest {

    private static final Path KEYSTORE = Path.of("ui.p12");
    private static final Path TRUSTSTORE = Path.of("clients.p12");

    private static UiSettings settings(String bind, Path keystore, String basicAuth, Path truststore, boolean allowOpen) {
        return new UiSettings(bind, 0, Duration.ofSeconds(5), List.of(), keystore, new char[0], basicAuth, truststore,
                new char[0], allowOpen);
    }

    @Test
    void onLoopbackThePageMayServePlainHttpWithoutACredential() {
        assertThat(settings("127.0.0.1", null, null, null, false).refusal()).isEmpty();
        assertThat(settings("localhost", null, null, null, false).refusal()).isEmpty();
        assertThat(settings("::1", null, null, null, false).refusal()).isEmpty();
    }

    @Test
    void beyondLoopbackItRefusesWithoutTlsAndACredentialAndSaysWhatIsMissing() {
        assertThat(settings("0.0.0.0", null, null, null, false).refusal()).get().asString()
                .contains("refusing to serve the page on 0.0.0.0").contains("TLS (--tls-keystore) and a credential")
                .contains("--allow-open");
        assertThat(settings("0.0.0.0", KEYSTORE, null, null, false).refusal()).get().asString()
                .contains("without a credential (--basic-auth-file or --tls-client-truststore)");
        assertThat(settings("0.0.0.0", null, "ops:secret", null, false).refusal()).get().asString()
                .contains("without TLS (--tls-keystore)");
    }

    @Test
    void beyondLoopbackItStartsWithTlsAndBasicAuthOrAClientCertificateOrWhenToldItMayRunOpen() {
        assertThat(settings("0.0.0.0", KEYSTORE, "ops:secret", null, false).refusal()).isEmpty();
        assertThat(settings("0.0.0.0", KEYSTORE, null, TRUSTSTORE, false).refusal()).isEmpty();
        assertThat(settings("0.0.0.0", null, null, null, true).refusal()).isEmpty();
    }

    @Test
    void aClientTruststoreNeedsTlsAndABasicAuthFileNeedsAUserAndAPassword() {
        assertThat(settings("127.0.0.1", null, null, TRUSTSTORE, false).refusal()).get().asString().contains("needs TLS");
        assertThat(settings("127.0.0.1", null, "nocolon", null, false).refusal()).get().asString().contains("user:password");
    }
}
