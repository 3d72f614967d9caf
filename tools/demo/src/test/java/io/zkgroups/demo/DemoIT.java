package io.zkgroups.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's first command, in a short mode: it must run to the end and account for every record. */
@Timeout(600)
class DemoIT {

    @Test
    void theDemoRunsToTheEndWithNoRecordLost() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        try (PrintStream tee = new PrintStream(new TeeStream(original, captured), true, StandardCharsets.UTF_8)) {
            System.setOut(tee);
            exit = Demo.run(new String[] {"--duration", "1s", "--partitions", "6", "--members", "3"});
        } finally {
            System.setOut(original);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        assertThat(output).contains("No record was lost.").contains("lost                         0")
                .contains("kill -9 of").contains("Migration of the group's offsets")
                .containsPattern("PHASE dual-commit");
        // the real 0.8.2.2 consumer took part: it joined the group again in the bounce and handed out records
        assertThat(output).contains("and one real kafka 0.8.2.2 consumer").contains("(kafka 0.8.2.2) joined")
                .containsPattern("deliveries by kafka 0.8.2.2 +[1-9][0-9]*");
    }

    /** Writes to the console and keeps a copy for the assertions. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream a;
        private final java.io.OutputStream b;

        TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }
}
