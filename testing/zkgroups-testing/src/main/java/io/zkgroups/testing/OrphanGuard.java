package io.zkgroups.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.AsynchronousCloseException;

/**
 * For child JVMs ({@link ChildJvm}) that read nothing on stdin: when the parent goes away (even by SIGKILL), the
 * child's stdin ends, and the child exits instead of living on as an orphan holding ports and CPU.
 */
public final class OrphanGuard {

    private OrphanGuard() {
    }

    /** Exits the JVM (shutdown hooks run) once stdin ends; stdin is not read for anything else. */
    public static void exitWhenStdinEnds() {
        Thread t = new Thread(() -> {
            try (InputStream in = StandardInput.closedAtExit()) {
                while (in.read() >= 0) {
                    // nothing is sent; only the end matters
                }
            } catch (AsynchronousCloseException e) {
                return; // closed at exit: the JVM is exiting already
            } catch (IOException e) {
                // the pipe broke: same as its end
            }
            System.exit(3);
        }, "orphan-guard");
        t.setDaemon(true);
        t.start();
    }
}
