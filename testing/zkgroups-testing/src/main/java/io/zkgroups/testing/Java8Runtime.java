package io.zkgroups.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Java 8 runtime for tests that run code on Java 8: the one named by {@code -Dzkgroups.java8.home=/path/to/jdk8},
 * else Debian sid's {@code openjdk-8-jre-headless}, installed by {@code provision-java8.sh} into a minimal Debian
 * trixie root under {@code ~/.cache/zkgroups/java8} ({@code -Dzkgroups.java8.cache=DIR} to change) on the first call
 * and reused after that, by every worktree of the machine. Making it needs root and Debian's mirrors (about three
 * minutes, ~700 MB: a test that calls it needs a timeout that allows for that); where that cannot be had,
 * {@link #find()} says why, for a test to skip with that reason.
 * Thread-safe; concurrent builds of the machine wait for each other's provisioning through a file lock.
 */
public final class Java8Runtime {

    public static final String HOME_PROPERTY = "zkgroups.java8.home";
    public static final String CACHE_PROPERTY = "zkgroups.java8.cache";
    private static final int UNAVAILABLE = 3;
    private static final long PROVISION_MINUTES = 20;

    /** The runtime's {@code bin/java}, or why there is none. */
    public record Found(Path java, String reason) {
        public boolean available() {
            return java != null;
        }

        /** The {@code bin/java}; fails with the reason when there is none. */
        public Path javaOrFail() {
            if (java == null) {
                throw new IllegalStateException(reason);
            }
            return java;
        }
    }

    private static Found found;

    private Java8Runtime() {
    }

    /**
     * The Java 8 runtime, made on the first call where it is not cached yet. Unavailable (with the reason) when
     * the build does not run as root, or Debian's packages cannot be reached; a provisioning that fails otherwise
     * throws, with the tail of its log.
     */
    public static synchronized Found find() {
        if (found == null) {
            found = locate();
        }
        return found;
    }

    private static Found locate() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home != null && !home.isEmpty()) {
            Path java = Path.of(home, "bin", "java");
            if (!Files.isExecutable(java)) {
                throw new IllegalStateException("-D" + HOME_PROPERTY + "=" + home + " has no executable bin/java");
            }
            return new Found(java, null);
        }
        Path cache = Path.of(System.getProperty(CACHE_PROPERTY,
                Path.of(System.getProperty("user.home"), ".cache", "zkgroups", "java8").toString())).toAbsolutePath();
        Path root = cache.resolve("trixie-root");
        Path java = root.resolve("java-home/bin/java");
        try {
            Files.createDirectories(cache);
            try (FileChannel lockFile = FileChannel.open(cache.resolve("provision.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = lockFile.lock()) {
                if (Files.isRegularFile(root.resolve(".complete")) && Files.isExecutable(java)) {
                    return new Found(java, null);
                }
                return provision(cache, root, java);
            }
        } catch (IOException e) {
            return new Found(null, "no Java 8 runtime: cannot use the cache " + cache + ": " + e.getMessage());
        }
    }

    private static Found provision(Path cache, Path root, Path java) throws IOException {
        Path script = cache.resolve("provision-java8.sh");
        try (InputStream in = Java8Runtime.class.getResourceAsStream("provision-java8.sh")) {
            if (in == null) {
                throw new IllegalStateException("provision-java8.sh is missing from zkgroups-testing's jar");
            }
            Files.write(script, in.readAllBytes());
        }
        Path log = cache.resolve("provision.log");
        Process process = new ProcessBuilder(List.of("bash", script.toString(), root.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        process.getOutputStream().close();
        int code;
        try {
            if (!process.waitFor(PROVISION_MINUTES, TimeUnit.MINUTES)) {
                destroyTree(process);
                throw new IllegalStateException("making the Java 8 runtime took more than " + PROVISION_MINUTES
                        + " minutes; its log: " + log + "\n" + tail(log));
            }
            code = process.exitValue();
        } catch (InterruptedException e) {
            destroyTree(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the Java 8 runtime", e);
        }
        if (code == UNAVAILABLE) {
            return new Found(null, lastLine(log) + " (set -D" + HOME_PROPERTY + "=/path/to/jdk8 to use another)");
        }
        if (code != 0 || !Files.isExecutable(java)) {
            throw new IllegalStateException("making the Java 8 runtime in " + root + " failed (exit " + code
                    + "); its log: " + log + "\n" + tail(log));
        }
        return new Found(java, null);
    }

    /** The script and what it started (debootstrap, apt-get): none may go on writing the root after we leave. */
    private static void destroyTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String lastLine(Path log) throws IOException {
        List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        return lines.isEmpty() ? "no Java 8 runtime (no reason given)" : lines.get(lines.size() - 1);
    }

    private static String tail(Path log) throws IOException {
        String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }
}
