package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.RegistryException;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ZooKeeperDenialTest {

    @Test
    void findsANoAuthBehindTheRegistrysWrapping() {
        KeeperException.NoAuthException denied = (KeeperException.NoAuthException) KeeperException.create(
                KeeperException.Code.NOAUTH, "/consumers/g/ids/c1");
        RuntimeException failure = new RegistryException("cannot register c1", denied);

        assertThat(ZooKeeperDenial.in(failure)).containsSame(denied);
        assertThat(ZooKeeperDenial.explain("g", denied))
                .contains("/consumers/g/ids/c1", "NOAUTH", "zkgroups.zookeeper.auth");
    }

    @Test
    void otherZooKeeperErrorsAreRetriedNotRefused() {
        RuntimeException lost = new RegistryException("cannot register c1",
                KeeperException.create(KeeperException.Code.CONNECTIONLOSS, "/consumers/g/ids/c1"));

        assertThat(ZooKeeperDenial.in(lost)).isEmpty();
        assertThat(ZooKeeperDenial.in(new IllegalStateException("no cause"))).isEmpty();
    }
}
