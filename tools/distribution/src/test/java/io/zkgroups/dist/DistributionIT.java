package io.zkgroups.dist;

import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ChildZooKeeperServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution as ops get it: the tarball unpacked into an empty directory and run with nothing but
 * {@code java} on the PATH (no Maven, no JAVA_HOME, no network), as {@code bin/zkgroups}.
 */
@Timeout(180)
class DistributionIT {

    static final String VERSION = System.getProperty("zkgroups.version");

    @TempDir
    static Path dir;
    static Path home;
    /** A directory holding only a link to the JDK's java: the PATH of every run. */
    static Path javaOnly;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("zkgroups.dist.tarball"));
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0).as("tar: %s", output).isTrue();
        home = dir.resolve("zkgroups-" + VERSION);
        javaOnly = Files.createDirectory(dir.resolve("path"));
        Files.createSymbolicLink(javaOnly.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    @AfterAll
    static void removeJavaLink() throws IOException {
        Files.deleteIfExists(javaOnly.resolve("java")); // the link only, before JUnit cleans the temp dir
    }

    record Run(int code, String out, String err) {
    }

    /** Runs {@code bin/zkgroups args} with exactly {@code env} as its environment. */
    static Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/zkgroups").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/zkgroups " + String.join(" ", args) + " did not finish in 90 s");
        }
        return new Run(process.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
    }

    static Run run(String... args) throws IOException, InterruptedException {
        return run(Map.of("PATH", javaOnly.toString()), args);
    }

    @Test
    void versionComesFromTheBuildWithOnlyJavaOnThePath() throws Exception {
        long start = System.nanoTime();
        Run run = run("--version");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(run.code).as(run.err).isZero();
        assertThat(run.out.lines().findFirst()).contains("zkgroups " + VERSION);
        assertThat(run.out).contains("Java " + System.getProperty("java.version"));
        assertThat(run.err).isEmpty();
        System.out.println("bin/zkgroups --version from the unpacked distribution: " + millis + " ms");
    }

    @Test
    void helpListsTheCommands() throws Exception {
        Run run = run("--help");

        assertThat(run.code).as(run.err).isZero();
        assertThat(run.out).startsWith("Usage: zkgroups")
                .contains("groups", "offsets", "migrate", "health", "consume", "--version");
        assertThat(run.err).isEmpty();
    }

    @Test
    void javaHomeWinsAndABadOneIsNamed() throws Exception {
        Run viaJavaHome = run(Map.of("PATH", dir.resolve("nothing-here").toString(),
                "JAVA_HOME", System.getProperty("java.home")), "--version");
        assertThat(viaJavaHome.code).as(viaJavaHome.err).isZero();
        assertThat(viaJavaHome.out).startsWith("zkgroups " + VERSION);

        Run bad = run(Map.of("PATH", javaOnly.toString(), "JAVA_HOME", dir.toString()), "--version");
        assertThat(bad.code).isEqualTo(1);
        assertThat(bad.err).contains("JAVA_HOME is " + dir).contains("is not an executable");

        Path java11 = Files.createDirectories(dir.resolve("java11/bin"));
        Files.createSymbolicLink(java11.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        Files.writeString(java11.resolveSibling("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"11.0.2\"\n");
        Run old = run(Map.of("JAVA_HOME", java11.getParent().toString()), "--version");
        Files.delete(java11.resolve("java"));
        assertThat(old.code).isEqualTo(1);
        assertThat(old.err).contains("is Java 11; zkgroups needs Java 17 or later");

        Run none = run(Map.of("PATH", dir.resolve("nothing-here").toString()), "--version");
        assertThat(none.code).isEqualTo(1);
        assertThat(none.err).contains("no java: install a Java 17+ runtime");
    }

    @Test
    void demoSaysItIsACheckoutCommand() throws Exception {
        Run run = run("demo");

        assertThat(run.code).isEqualTo(2);
        assertThat(run.err).contains("'demo' runs from a source checkout only");
    }

    @Test
    void aCommandAgainstARealZooKeeperFindsEveryClassInLib() throws Exception {
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            zk.newClient().create().creatingParentsIfNeeded()
                    .forPath("/consumers/dist-group/offsets/t/0", "12".getBytes(StandardCharsets.US_ASCII));

            Run run = run("groups", "list", "--zookeeper", zk.connectString(), "--output", "json");

            assertThat(run.code).as(run.err).isZero();
            assertThat(run.out).contains("\"dist-group\"");
        }
    }

    @Test
    void aClassDataArchiveIsWrittenByTheFirstRunAndMappedByTheNext() throws Exception {
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            zk.newClient().create().creatingParentsIfNeeded()
                    .forPath("/consumers/cds-group/offsets/t/0", "7".getBytes(StandardCharsets.US_ASCII));
            Path archive = dir.resolve("zkgroups.jsa");
            Path classLog = dir.resolve("class-load.log");
            String[] args = {"groups", "list", "--zookeeper", zk.connectString(), "--output", "json"};

            Run writing = run(Map.of("PATH", javaOnly.toString(), "ZKGROUPS_CLASS_DATA", archive.toString()), args);
            assertThat(writing.code).as(writing.err).isZero();
            assertThat(writing.out).startsWith("{").contains("\"cds-group\""); // JSON only: no JVM line on stdout
            assertThat(writing.err).doesNotContain("[cds]"); // the classes it could not archive are not news
            assertThat(archive).isRegularFile();

            Run mapping = run(Map.of("PATH", javaOnly.toString(), "ZKGROUPS_CLASS_DATA", archive.toString(),
                    "ZKGROUPS_JAVA_OPTS", "-Xmx512m -XX:+UseSerialGC -Xlog:class+load=info:file=" + classLog), args);
            assertThat(mapping.code).as(mapping.err).isZero();
            assertThat(mapping.out).isEqualTo(writing.out);
            assertThat(mapping.err).doesNotContain("[cds]");
            assertThat(Files.readString(classLog)).containsPattern("io\\.zkgroups\\.tool\\.Main source: shared objects file");
        }
    }

    @Test
    void theConfDirectoryStillConfiguresLogging() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("chatty-conf"));
        Files.writeString(conf.resolve("simplelogger.properties"), "org.slf4j.simpleLogger.logFile=System.err\n"
                + "org.slf4j.simpleLogger.log.org.apache.zookeeper=info\n");
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            Run quiet = run("groups", "list", "--zookeeper", zk.connectString());
            Run chatty = run(Map.of("PATH", javaOnly.toString(), "ZKGROUPS_CONF_DIR", conf.toString()),
                    "groups", "list", "--zookeeper", zk.connectString());

            assertThat(quiet.code).as(quiet.err).isZero();
            assertThat(chatty.code).as(chatty.err).isZero();
            assertThat(quiet.err).doesNotContain("INFO");
            assertThat(chatty.err).contains("INFO").contains("Initiating client connection");
        }
    }

    @Test
    void saslDigestLoginThroughZkgroupsJavaOpts() throws Exception {
        Path serverJaas = Files.writeString(dir.resolve("server-jaas.conf"), """
                Server {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  user_zkgroups="zk-secret";
                };
                """);
        Path clientJaas = Files.writeString(dir.resolve("client-jaas.conf"), """
                Client {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  username="zkgroups"
                  password="zk-secret";
                };
                """);
        // SASL enforced: a session that did not log in with SASL (or digest, for this test's own client) is refused
        try (ChildZooKeeperServer zk = ChildZooKeeperServer.start(ChildZooKeeperServer.settings().withSasl(serverJaas, true)
                .with("enforce.auth.schemes", "sasl,digest"));
             CuratorFramework admin = CuratorFrameworkFactory.builder().connectString(zk.connectString())
                     .authorization("digest", "admin:admin".getBytes(StandardCharsets.UTF_8))
                     .retryPolicy(new ExponentialBackoffRetry(100, 5)).build()) {
            admin.start();
            admin.create().creatingParentsIfNeeded().forPath("/consumers/sasl-group/ids", new byte[0]);

            Path security = Files.writeString(dir.resolve("zk-sasl.properties"), "zookeeper.fips-mode=false\n");
            Run withLogin = run(Map.of("PATH", javaOnly.toString(),
                            "ZKGROUPS_JAVA_OPTS", "-Xmx256m -Djava.security.auth.login.config=" + clientJaas),
                    "groups", "list", "--zookeeper", zk.connectString(), "--zk-tls-config-file", security.toString(),
                    "--output", "json", "--timeout", "30s");
            assertThat(withLogin.code).as(withLogin.err).isZero();
            assertThat(withLogin.out).contains("\"sasl-group\"");

            Run without = run("groups", "list", "--zookeeper", zk.connectString(), "--output", "json", "--timeout", "5s");
            assertThat(without.code).as(without.out).isNotZero();
            assertThat(without.out).doesNotContain("sasl-group");
        }
    }

    @Test
    void theExampleConsumerPropertiesNameOnlyKeysTheConsumerReads() throws Exception {
        Path example = home.resolve("conf/consumer.properties");
        List<String> lines = Files.readAllLines(example);
        java.util.Properties active = new java.util.Properties();
        try (var reader = Files.newBufferedReader(example)) {
            active.load(reader);
        }
        assertThat(io.zkgroups.rebalancer.consumer.ZkConsumerConfig.from(active).warnings()).isEmpty();

        List<String> documented = lines.stream().filter(l -> l.matches("#[a-z][a-zA-Z0-9.]*=.*")).toList();
        assertThat(documented).hasSizeGreaterThan(40);
        for (String line : documented) {
            String key = line.substring(1, line.indexOf('='));
            String value = line.substring(line.indexOf('=') + 1);
            if (io.zkgroups.registry.security.ZkClientSecurity.isSecurityKey(key)) {
                continue; // paths and passwords of an example: checked by the security tests
            }
            java.util.Properties props = new java.util.Properties();
            props.putAll(active);
            props.setProperty(key, value.isEmpty() ? "x" : value);
            assertThat(io.zkgroups.rebalancer.consumer.ZkConsumerConfig.from(props).warnings()).as(line).isEmpty();
        }
    }

    @Test
    void libHoldsTheLoggingBindingAndNoTestLibraryAndTheZipHasTheSameFiles() throws Exception {
        List<String> jars;
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            jars = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(jars).anyMatch(j -> j.startsWith("slf4j-simple-"))
                .anyMatch(j -> j.equals("migration-tool-" + VERSION + ".jar"))
                .noneMatch(j -> j.matches("(junit|assertj|awaitility|jqwik|curator-test|hamcrest|opentest4j|kafka_2).*"));
        assertThat(Files.isExecutable(home.resolve("bin/zkgroups"))).isTrue();
        assertThat(home.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
        assertThat(home.resolve("NOTICE")).exists();
        assertThat(home.resolve("docs/install.md")).exists();

        TreeSet<String> tarFiles = new TreeSet<>();
        try (Stream<Path> files = Files.walk(home)) {
            files.filter(Files::isRegularFile).forEach(p -> tarFiles.add(home.relativize(p).toString()));
        }
        TreeSet<String> zipFiles = new TreeSet<>();
        try (ZipFile zip = new ZipFile(System.getProperty("zkgroups.dist.zip"))) {
            zip.stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName)
                    .forEach(n -> zipFiles.add(n.substring(n.indexOf('/') + 1)));
        }
        assertThat(zipFiles).isEqualTo(tarFiles);
    }

    /** README.md and docs/*.md link to each other and to files in docs/: every such link resolves in the archive. */
    @Test
    void everyRelativeLinkOfThePagesResolvesInTheArchive() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(home.resolve("README.md")));
        try (Stream<Path> docs = Files.list(home.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertThat(pages).hasSizeGreaterThan(5);
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = link.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1).replaceFirst("#.*", "");
                if (target.isEmpty() || target.matches("[a-z][a-z0-9+.-]*:.*")) {
                    continue; // an anchor in the page itself, or a URL
                }
                if (!Files.exists(page.getParent().resolve(target).normalize())) {
                    broken.add(home.relativize(page) + ": " + m.group(1));
                }
            }
        }
        assertThat(broken).as("links that do not resolve in the unpacked archive").isEmpty();
    }

    @Test
    void theBomHasTheProjectVersion() throws Exception {
        String bom = Files.readString(Path.of(System.getProperty("zkgroups.bom")));
        assertThat(bom).contains("<artifactId>zkgroups-bom</artifactId>\n  <version>" + VERSION + "</version>");
    }
}
