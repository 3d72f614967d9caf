package io.zkgroups.bench;

import io.zkgroups.registry.codec.CodecWarmUp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A fresh JVM's first decode of every znode codec ({@link CodecWarmUp}), timed in fresh JVMs: what a joining member, a
 * successor or a CLI run pays before its first znode is read.
 * <pre>
 * ColdDecodeBench [--reps 5]      one child JVM per repetition, same class path; prints each time and the median
 * </pre>
 */
public final class ColdDecodeBench {

    private ColdDecodeBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--child")) {
            long start = System.nanoTime();
            boolean ran = CodecWarmUp.run();
            System.out.println((System.nanoTime() - start) / 1_000_000.0 + " " + ran);
            return;
        }
        int reps = args.length == 2 && args[0].equals("--reps") ? Integer.parseInt(args[1]) : 5;
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < reps; i++) {
            Process child = new ProcessBuilder(RebalanceProcess.java(), "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), ColdDecodeBench.class.getName(), "--child")
                    .redirectErrorStream(true).start();
            String line;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                line = out.readLine();
            }
            if (child.waitFor() != 0 || line == null || !line.endsWith(" true")) {
                throw new IllegalStateException("child " + i + " failed: " + line);
            }
            millis.add(Double.parseDouble(line.substring(0, line.indexOf(' '))));
        }
        List<Double> sorted = new ArrayList<>(millis);
        sorted.sort(null);
        System.out.printf("cold CodecWarmUp.run(), %d fresh JVMs: %s ms; median %.1f ms%n", reps, millis,
                sorted.get((reps - 1) / 2));
    }
}
