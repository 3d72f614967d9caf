package io.zkgroups.bench;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A class path with its rebalancer replaced by another build's jar: the same benchmark, run on an older commit. */
final class RebalancerJar {

    private RebalancerJar() {
    }

    /** {@code classpath} with its rebalancer jar (or classes directory) replaced by {@code jar}. */
    static String replace(String classpath, String jar) {
        List<String> entries = new ArrayList<>(Arrays.asList(classpath.split(File.pathSeparator)));
        if (!entries.removeIf(e -> e.matches(".*rebalancer[^/]*\\.jar$") || e.endsWith("rebalancer/target/classes"))) {
            throw new IllegalStateException("no rebalancer jar on the class path to replace: " + classpath);
        }
        entries.add(0, Path.of(jar).toAbsolutePath().toString());
        return String.join(File.pathSeparator, entries);
    }
}
