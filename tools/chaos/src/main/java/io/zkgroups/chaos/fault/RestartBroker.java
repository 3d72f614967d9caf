package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;

import java.util.Random;

/** A clean broker restart with its data: every fetch and produce fails over the restart. */
final class RestartBroker implements Fault {

    @Override
    public String name() {
        return "restart-broker";
    }

    @Override
    public String description() {
        return "SIGTERM the Kafka broker (clean shutdown) and start it again on the same ports with its data; "
                + "fetches and produces fail meanwhile, members keep their partitions";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        long start = System.nanoTime();
        cluster.journal().log("TERM", "kafka");
        cluster.broker().restart();
        return "restarted the broker in " + (System.nanoTime() - start) / 1_000_000 + " ms";
    }
}
