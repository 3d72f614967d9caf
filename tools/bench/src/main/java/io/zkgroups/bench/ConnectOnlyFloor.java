package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of a burst: as many fresh JVMs as the burst starts, with the same options, that only connect to ZooKeeper
 * ({@link ZooKeeperConnectMain}, one session per member each stands for), started at once; the time from the first
 * start to the last connected. Bursts are reported beside it and less it.
 */
final class ConnectOnlyFloor {

    private ConnectOnlyFloor() {
    }

    /**
     * Starts one JVM per entry of {@code sessionsPerJvm} and returns the ms to the last connected, or NaN if one was not
     * connected within {@code wait}; the JVMs are killed before it returns.
     *
     * @param classpath null: this JVM's class path
     */
    static double measure(List<Integer> sessionsPerJvm, String classpath, List<String> jvmOptions, String connect,
                          Duration wait) throws InterruptedException {
        CountDownLatch connected = new CountDownLatch(sessionsPerJvm.size());
        AtomicLong last = new AtomicLong();
        List<ChildJvm> jvms = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int i = 0; i < sessionsPerJvm.size(); i++) {
                ChildJvm.Builder builder = ChildJvm.builder("floor" + i, ZooKeeperConnectMain.class.getName())
                        .jvmOptions(jvmOptions).args(List.of(connect, Integer.toString(sessionsPerJvm.get(i))))
                        .discardStderr().onLine(line -> {
                            if (line.equals("CONNECTED")) {
                                last.accumulateAndGet(System.nanoTime(), Math::max);
                                connected.countDown();
                            }
                            return false;
                        });
                jvms.add((classpath == null ? builder : builder.classpath(classpath)).start());
            }
            if (!connected.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return Double.NaN;
            }
            return (last.get() - start) / 1e6;
        } finally {
            jvms.forEach(ChildJvm::kill);
        }
    }
}
