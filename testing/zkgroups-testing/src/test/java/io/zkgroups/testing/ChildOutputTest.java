package io.zkgroups.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ChildOutput} on small shell children: what it keeps, and that a wait ends with the stream. */
@Timeout(30)
class ChildOutputTest {

    private static final Duration LONG = Duration.ofSeconds(20);

    private static Process sh(String script) throws IOException {
        return new ProcessBuilder("sh", "-c", script).start();
    }

    @Test
    void keepsTheLinesTheHookDoesNotTake() throws Exception {
        AtomicInteger taken = new AtomicInteger();
        ChildOutput out = ChildOutput.start(sh("echo a; echo 'REC 1'; echo b; echo 'REC 2'"), "test-stdout",
                line -> {
                    if (!line.startsWith("REC ")) {
                        return false;
                    }
                    taken.incrementAndGet();
                    return true;
                });

        assertThat(out.await(lines -> taken.get() == 2, LONG)).isTrue();
        assertThat(out.awaitClosed(LONG)).isTrue();
        assertThat(out.lines()).containsExactly("a", "b");
        assertThat(out.awaitLine(1, "b"::equals, LONG)).isEqualTo(1);
    }

    @Test
    void aWaitEndsWithTheStreamNotAtItsDeadline() throws Exception {
        ChildOutput out = ChildOutput.start(sh("echo only"), "test-stdout");

        long start = System.nanoTime();
        assertThat(out.awaitLine(0, "never"::equals, LONG)).isEqualTo(-1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LONG);
        assertThat(out.isClosed()).isTrue();
        assertThatThrownBy(() -> out.requireLine(0, "never"::equals, LONG, "never", AssertionError::new))
                .hasMessage("stdout closed (process exited) while waiting for never");
    }

    @Test
    void aWaitOnAnOpenStreamTimesOut() throws Exception {
        Process cat = new ProcessBuilder("cat").start(); // silent until its stdin closes
        try {
            ChildOutput out = ChildOutput.start(cat, "test-stdout");
            assertThat(out.await(List::isEmpty, Duration.ofMillis(100))).isTrue();
            assertThat(out.await(lines -> !lines.isEmpty(), Duration.ofMillis(100))).isFalse();
            assertThatThrownBy(() -> out.require(lines -> false, Duration.ofMillis(100), "x", AssertionError::new))
                    .hasMessage("timed out after PT0.1S waiting for x");
            assertThat(out.isClosed()).isFalse();

            cat.getOutputStream().close();
            assertThat(out.awaitClosed(LONG)).isTrue();
        } finally {
            cat.destroyForcibly();
        }
    }
}
