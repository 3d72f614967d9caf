package io.zkgroups.rebalancer.restart;

import io.zkgroups.registry.Time;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The local file through which a stopping member hands its session to its successor. Every access holds an exclusive
 * lock ({@link FileChannel#lock()}) on {@code <file>.lock}, so a writer and a taker never see half of each other's
 * work; a ticket is written to a temporary file and renamed over the file atomically, so a writer killed midway
 * leaves no partial ticket; and {@link #take()} deletes what it read, so a ticket is used at most once.
 * <p>
 * The file holds a session password (whoever has it can take the session over): it is readable by its owner only.
 */
public final class HandoverFile {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final Path lockFile;
    private final Path tempFile;
    private final Time time;

    public HandoverFile(Path file) {
        this(file, Time.SYSTEM);
    }

    /** @param time what {@link #awaitTicket}'s timeout is measured with */
    public HandoverFile(Path file, Time time) {
        this.time = Objects.requireNonNull(time, "time cannot be null");
        this.file = Objects.requireNonNull(file, "file cannot be null").toAbsolutePath();
        this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
        this.tempFile = this.file.resolveSibling(this.file.getFileName() + ".tmp");
    }

    public Path path() {
        return file;
    }

    /**
     * Replaces the file's ticket with {@code ticket}, durably (written, forced to disk, then renamed into place).
     *
     * @throws UncheckedIOException naming the file if it cannot be written
     */
    public void write(HandoverTicket ticket) {
        locked("write the hand-over file", () -> {
            Files.deleteIfExists(tempFile);
            try (FileChannel out = FileChannel.open(createOwnerOnly(tempFile), StandardOpenOption.WRITE)) {
                out.write(StandardCharsets.UTF_8.encode(ticket.encode()));
                out.force(true);
            }
            try {
                Files.move(tempFile, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + file + " cannot rename atomically", e);
            }
            return null;
        });
    }

    /**
     * Reads and deletes the ticket, if there is one.
     *
     * @throws IllegalArgumentException naming the file if its content is not a ticket (the file is deleted all the same)
     * @throws UncheckedIOException     naming the file if it cannot be read or deleted
     */
    public Optional<HandoverTicket> take() {
        String text = locked("take the hand-over file", () -> {
            try {
                String content = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                Files.delete(file);
                return content;
            } catch (NoSuchFileException none) {
                return null;
            }
        });
        return text == null ? Optional.empty() : Optional.of(HandoverTicket.decode(text, "hand-over file " + file));
    }

    /**
     * Waits up to {@code timeout} for a ticket to be written, woken by the directory's change events (a successor
     * started before its predecessor stops). Returns whether the file is there.
     *
     * @throws UncheckedIOException naming the file if its directory cannot be watched
     */
    public boolean awaitTicket(Duration timeout) throws InterruptedException {
        try {
            Files.createDirectories(file.getParent());
            try (WatchService changes = file.getFileSystem().newWatchService()) {
                // a rename into place is a create; registered before the check, so no ticket is missed in between
                file.getParent().register(changes, StandardWatchEventKinds.ENTRY_CREATE);
                long deadline = time.nanoseconds() + timeout.toNanos();
                while (!Files.exists(file)) {
                    long left = deadline - time.nanoseconds();
                    WatchKey key = left > 0 ? changes.poll(left, TimeUnit.NANOSECONDS) : null;
                    if (key == null) {
                        return Files.exists(file);
                    }
                    key.pollEvents();
                    key.reset();
                }
                return true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + file.getParent() + " for the hand-over file: " + e, e);
        }
    }

    private interface Step<T> {
        T run() throws IOException;
    }

    private <T> T locked(String what, Step<T> step) {
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel lock = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = lock.lock()) {
                return step.run();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot " + what + " " + file + ": " + e, e);
        }
    }

    private static Path createOwnerOnly(Path path) throws IOException {
        try {
            return Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (UnsupportedOperationException notPosix) {
            return Files.createFile(path);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("another writer is using " + path, e);
        }
    }
}
