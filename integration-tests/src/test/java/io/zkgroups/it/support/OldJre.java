package io.zkgroups.it.support;

import org.apache.commons.compress.archivers.ar.ArArchiveEntry;
import org.apache.commons.compress.archivers.ar.ArArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * An older Java runtime for tests that run the Java 8 libraries in a child JVM: the one named by
 * {@code -Dzkgroups.oldJvm.home=/path/to/jdk} (a JDK or JRE 8 or 11), else Debian bullseye's
 * {@code openjdk-11-jre-headless}, pinned by version and SHA-256, downloaded once into
 * {@code ~/.cache/zkgroups/jre} ({@code -Dzkgroups.oldJvm.cache=DIR} to change) and unpacked there. Java 8 is not
 * used here: making it takes minutes and root ({@link io.zkgroups.testing.Java8Runtime}), so the Java 8 suites run
 * in the compat-matrix profile.
 */
public final class OldJre {

    public static final String HOME_PROPERTY = "zkgroups.oldJvm.home";
    public static final String SKIP_PROPERTY = "zkgroups.oldJvm.skip";
    public static final String CACHE_PROPERTY = "zkgroups.oldJvm.cache";

    static final String PACKAGE = "openjdk-11-jre-headless";
    static final String VERSION = "11.0.32.1+1-1~deb11u1";
    static final String URL = "http://deb.debian.org/debian-security/pool/updates/main/o/openjdk-11/"
            + "openjdk-11-jre-headless_11.0.32.1+1-1~deb11u1_amd64.deb";
    static final String SHA256 = "c9978301296dcc969d76b703134c155e41efdf37c71d6b407d27640514c3ca0a";
    /** Where the package puts the runtime, relative to the unpacked root. */
    private static final String JAVA_HOME_IN_PACKAGE = "usr/lib/jvm/java-11-openjdk-amd64";

    private OldJre() {
    }

    /** True when {@code -Dzkgroups.oldJvm.skip=true} asks to leave out the tests that need an older JVM. */
    public static boolean skipped() {
        return Boolean.getBoolean(SKIP_PROPERTY);
    }

    /** The {@code bin/java} of the older runtime; fails with what to do when there is none. */
    public static Path java() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home != null && !home.isEmpty()) {
            Path java = Path.of(home, "bin", "java");
            if (!Files.isExecutable(java)) {
                throw new IllegalStateException("-D" + HOME_PROPERTY + "=" + home + " has no executable bin/java");
            }
            return java;
        }
        Path cache = Path.of(System.getProperty(CACHE_PROPERTY,
                Path.of(System.getProperty("user.home"), ".cache", "zkgroups", "jre").toString()));
        Path root = cache.resolve(PACKAGE + "_" + VERSION.replace('~', '_').replace('+', '_'));
        Path java = root.resolve(JAVA_HOME_IN_PACKAGE).resolve("bin/java");
        if (Files.isRegularFile(root.resolve(".complete"))) {
            return java;
        }
        Path deb = null;
        Path partial = null;
        try {
            Files.createDirectories(cache);
            deb = Files.createTempFile(cache, PACKAGE, ".deb");
            download(deb);
            partial = Files.createTempDirectory(cache, "unpacking-");
            unpack(deb, partial);
            Files.writeString(partial.resolve(".complete"), VERSION + "\n");
            publish(partial, root);
            partial = null;
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot provide a Java 11 runtime: " + e.getMessage() + ". Downloading "
                    + URL + " into " + cache + " and unpacking it failed; give a JDK 8 or 11 with -D" + HOME_PROPERTY
                    + "=/path, or leave these tests out with -D" + SKIP_PROPERTY + "=true", e);
        } finally {
            deleteQuietly(deb);
            deleteQuietly(partial);
        }
        return java;
    }

    private static void download(Path deb) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<Path> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create(URL)).timeout(Duration.ofMinutes(3)).build(),
                    HttpResponse.BodyHandlers.ofFile(deb));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " for " + URL);
        }
        String actual = sha256(deb);
        if (!actual.equals(SHA256)) {
            throw new IOException("SHA-256 of " + URL + " is " + actual + ", expected " + SHA256);
        }
    }

    /** The package's data.tar.xz, unpacked under {@code root}; symbolic links that point to absolute paths point
     * into {@code root} instead (the package links {@code conf/} files to {@code /etc/java-11-openjdk}). */
    static void unpack(Path deb, Path root) throws IOException {
        try (ArArchiveInputStream ar = new ArArchiveInputStream(new BufferedInputStream(Files.newInputStream(deb)))) {
            ArArchiveEntry entry;
            while ((entry = ar.getNextEntry()) != null) {
                if (entry.getName().equals("data.tar.xz")) {
                    untar(new XZCompressorInputStream(ar), root);
                    return;
                }
            }
        }
        throw new IOException(deb + " has no data.tar.xz: not a Debian package");
    }

    private static void untar(InputStream in, Path root) throws IOException {
        TarArchiveInputStream tar = new TarArchiveInputStream(in);
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
            Path target = root.resolve(entry.getName()).normalize();
            if (!target.startsWith(root)) {
                throw new IOException("entry " + entry.getName() + " points outside the package root");
            }
            if (entry.isDirectory()) {
                Files.createDirectories(target);
            } else if (entry.isSymbolicLink()) {
                Files.createDirectories(target.getParent());
                String link = entry.getLinkName();
                Path linkTarget = link.startsWith("/")
                        ? target.getParent().relativize(root.resolve(link.substring(1)))
                        : Path.of(link);
                Files.deleteIfExists(target);
                Files.createSymbolicLink(target, linkTarget);
            } else if (entry.isFile()) {
                Files.createDirectories(target.getParent());
                Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                if ((entry.getMode() & 0100) != 0) {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
    }

    /** Moves the unpacked runtime into place, unless another build (other worktrees share the cache) was first. */
    private static void publish(Path partial, Path root) throws IOException {
        if (!Files.isRegularFile(root.resolve(".complete"))) {
            deleteTree(root); // an unpacking that was cut short
            try {
                Files.move(partial, root, StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (java.nio.file.FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
                // another build has just published it
            }
        }
        deleteTree(partial);
    }

    private static String sha256(Path file) throws IOException {
        try (DigestInputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path path) {
        if (path != null) {
            try {
                deleteTree(path);
            } catch (IOException | UncheckedIOException e) {
                // a leftover in the cache directory, not a reason to fail
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
