package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConsumerResourcesTest {

    @Test
    void everythingOpenedIsClosedOnceLastOpenedFirstEvenWhenOneFails() {
        List<String> closed = new ArrayList<>();
        ConsumerResources resources = new ConsumerResources("test");
        resources.add("zookeeper", "zk", () -> closed.add("zk"));
        resources.add("absent", null, () -> closed.add("never: nothing was opened"));
        resources.add("fetcher", "fetch", () -> {
            closed.add("fetch");
            throw new IllegalStateException("broken");
        });
        resources.add("metadata poller", "poller", () -> closed.add("poller"));

        resources.closeAll();
        resources.closeAll();

        assertThat(closed).containsExactly("poller", "fetch", "zk");
    }
}
