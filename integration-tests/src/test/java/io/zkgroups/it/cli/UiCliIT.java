package io.zkgroups.it.cli;

import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zkgroups ui}: its guard (beyond loopback it needs TLS and a credential; without the credential a request gets
 * 401 and nothing else), its live updates over server-sent events, and the page itself in a real headless browser
 * (Debian's chromium and chromedriver, installed here as root where missing; the test is skipped, saying why, where
 * they cannot be had), which keeps a screenshot in {@code target/ui-screenshots}.
 */
@Timeout(240)
class UiCliIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    /** A running {@code zkgroups ui} in this JVM. */
    private record Ui(Thread thread, String base) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private static Ui startUi(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("ui", "--port", "0", "--zookeeper", c.zookeeper()));
        all.addAll(List.of(args));
        Thread t = new Thread(() -> Main.run(all.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)), "ui");
        t.start();
        Pattern listening = Pattern.compile("ui listening on (https?)://\\S+:(\\d+)/"); // an address may be IPv6
        await().atMost(WAIT).until(() -> listening.matcher(err.toString(StandardCharsets.UTF_8)).find() || !t.isAlive());
        Matcher m = listening.matcher(err.toString(StandardCharsets.UTF_8));
        assertThat(m.find()).as(err.toString(StandardCharsets.UTF_8)).isTrue();
        return new Ui(t, m.group(1) + "://127.0.0.1:" + m.group(2));
    }

    @Test
    void beyondLoopbackWithoutTlsAndACredentialThePageRefusesToStart(@TempDir Path dir) throws Exception {
        CliCluster.Run open = c.cli("ui", "--bind", "0.0.0.0", "--port", "0");
        assertThat(open.code()).as(open.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(open.err()).contains("refusing to serve the page on 0.0.0.0, beyond loopback, without TLS (--tls-keystore) "
                + "and a credential").doesNotContain("Exception");
        Path auth = Files.writeString(dir.resolve("auth"), "ops:s3cret\n");
        CliCluster.Run noTls = c.cli("ui", "--bind", "0.0.0.0", "--port", "0", "--basic-auth-file", auth.toString());
        assertThat(noTls.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(noTls.err()).contains("without TLS (--tls-keystore)");
    }

    @Test
    void withTlsAndACredentialARequestWithoutItGets401AndNothingElse(@TempDir Path dir) throws Exception {
        c.setZk("gui-guard", "guarded", 0, 1);
        Path keystore = dir.resolve("ui.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "ui", "-keyalg", "RSA", "-keysize", "2048", "-storetype", "PKCS12", "-keystore",
                keystore.toString(), "-storepass", "changeit", "-keypass", "changeit", "-dname", "CN=localhost",
                "-validity", "2", "-ext", "SAN=ip:127.0.0.1,dns:localhost").redirectErrorStream(true).start();
        assertThat(keytool.waitFor()).as(new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        Path password = Files.writeString(dir.resolve("password"), "changeit\n");
        Path auth = Files.writeString(dir.resolve("auth"), "ops:s3cret\n");
        try (Ui ui = startUi("--bind", "0.0.0.0", "--tls-keystore", keystore.toString(), "--tls-keystore-password-file",
                password.toString(), "--basic-auth-file", auth.toString())) {
            assertThat(ui.base()).startsWith("https://");
            HttpClient http = HttpClient.newBuilder().sslContext(trusting(keystore)).build();
            for (String path : List.of("/", "/assets/app.js", "/api/groups", "/api/group?group=gui-guard", "/events?group=gui-guard")) {
                HttpResponse<byte[]> denied = http.send(HttpRequest.newBuilder(URI.create(ui.base() + path)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(denied.statusCode()).as(path).isEqualTo(401);
                assertThat(denied.body()).as(path + ": nothing but the status").isEmpty();
                assertThat(denied.headers().firstValue("WWW-Authenticate")).as(path).get().asString()
                        .startsWith("Basic realm=\"zkgroups\"");
                assertThat(denied.headers().firstValue("Content-Type")).as(path).isEmpty();
            }
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/api/groups"))
                    .header("Authorization", basic("ops:wrong")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(wrong.body()).isEmpty();
            HttpResponse<String> allowed = http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/api/groups"))
                    .header("Authorization", basic("ops:s3cret")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(allowed.body()).contains("\"group\":\"gui-guard\"");
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/api/groups"))
                    .header("Authorization", basic("ops:s3cret")).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as("read-only").isEqualTo(405);
        }
    }

    @Test
    void aGroupsEventStreamCarriesEachChangeAsItHappens() throws Exception {
        c.kafka.createTopic("ui-sse", 1);
        c.fill("ui-sse", 1, 10);
        c.setZk("gui-sse", "ui-sse", 0, 3);
        try (Ui ui = startUi("--interval", "300ms", "--group", "gui-sse")) {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.body()).contains("/assets/uPlot.iife.min.js").doesNotContain("http://").doesNotContain("https://");
            assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString().contains("default-src 'self'");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/assets/uPlot.iife.min.js")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).contains("uPlot");

            assertThat(http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/api/group?group=nosuchgroup")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).as("only groups the page lists").isEqualTo(404);
            assertThat(http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/api/group?group=..%2F..")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
            HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(ui.base() + "/events?group=gui-sse"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(stream.headers().firstValue("Content-Type")).get().asString().startsWith("text/event-stream");
            List<String> data = Collections.synchronizedList(new ArrayList<>());
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.startsWith("data: ")) {
                            data.add(line);
                        }
                    }
                } catch (java.io.IOException e) {
                    // closed at the end of the test
                }
            }, "sse-reader");
            reader.setDaemon(true);
            reader.start();
            await().atMost(WAIT).until(() -> data.stream().anyMatch(d -> d.contains("\"zookeeperOffset\":3")));
            c.setZk("gui-sse", "ui-sse", 0, 7);
            await("the new offset arrives on the stream").atMost(WAIT)
                    .until(() -> data.stream().anyMatch(d -> d.contains("\"zookeeperOffset\":7")));
            assertThat(String.join("\n", data)).contains("\"coordinator\":\"ZooKeeper\"").contains("\"lagSeconds\"");
            stream.body().close();
        }
    }

    @Test
    void aRealHeadlessBrowserLoadsAGroupAndSeesALiveUpdateArrive() throws Exception {
        String missing = Chromium.ensure(CHROMIUM, CHROMEDRIVER);
        Assumptions.assumeTrue(missing == null, () -> "skipped: " + missing);
        c.kafka.createTopic("orders", 2);
        c.fill("orders", 2, 40);
        c.setZk("gui-browser", "orders", 0, 40);
        c.setZk("gui-browser", "orders", 1, 40);
        CliCluster.Run reset = c.cli("offsets", "reset", "--group", "gui-browser", "--all-topics", "--to-offset", "25", "--execute");
        assertThat(reset.code()).as(reset.toString()).isZero();
        CliCluster.Member member = c.member("gui-browser", "ops-1", Map.of("orders", 1));
        member.claim("orders", 0, 0, 1);
        c.setZk("gui-browser", "orders", 0, 31);
        try (Ui ui = startUi("--interval", "300ms")) {
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1100");
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort().build();
            WebDriver browser = new ChromeDriver(service, options);
            try {
                browser.get(ui.base() + "/?group=gui-browser");
                await("the page shows the group's partitions").atMost(WAIT).until(() ->
                        browser.findElements(By.cssSelector("#partitions tbody tr")).size() == 2);
                assertThat(browser.findElement(By.id("summary")).getText()).contains("coordinator: ZooKeeper");
                assertThat(browser.findElement(By.id("members")).getText()).contains("gui-browser_ops-1");
                assertThat(browser.findElement(By.id("history")).getText()).contains("offsets-written")
                        .contains("orders:0 zookeeper 40 -> 25");
                assertThat(partitionRow(browser, "orders:0")).contains("31");

                c.setZk("gui-browser", "orders", 0, 36);
                await("a live update arrives in the DOM").atMost(WAIT).until(() -> partitionRow(browser, "orders:0").contains("36"));
                long updates = Long.parseLong((String) ((JavascriptExecutor) browser).executeScript("return document.body.dataset.updates"));
                await("the chart has points").atMost(WAIT).until(() -> Long.parseLong((String) ((JavascriptExecutor) browser)
                        .executeScript("return document.body.dataset.updates")) >= updates + 3);
                assertThat(browser.findElements(By.cssSelector("#charts canvas"))).isNotEmpty();
                File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
                Path kept = Path.of("target", "ui-screenshots", "group.png");
                Files.createDirectories(kept.getParent());
                Files.copy(shot.toPath(), kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                assertThat(Files.size(kept)).isGreaterThan(10_000);
            } finally {
                browser.quit();
                member.leave();
            }
        }
    }

    /** The text of a partition's row, read in one script: every update replaces the rows. */
    private static String partitionRow(WebDriver browser, String partition) {
        Object text = ((JavascriptExecutor) browser).executeScript("const row = [...document.querySelectorAll("
                + "'#partitions tbody tr')].find(tr => tr.cells[0].textContent === arguments[0]); "
                + "return row ? row.innerText : '';", partition);
        return text == null ? "" : text.toString();
    }

    private static String basic(String userAndPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8));
    }

    /** An SSL context that trusts the certificate in {@code keystore} (the page's own, self-signed). */
    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        KeyManagerFactory.getDefaultAlgorithm();
        return ssl;
    }
}
