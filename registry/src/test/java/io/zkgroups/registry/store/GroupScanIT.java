package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A scan of many groups sees what each group's own reads see, and reports bad names and data per group. */
@Timeout(60)
class GroupScanIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void scansMembersOwnersAndOffsetsOfEveryGroupAndReportsWhatItCannotRead() throws Exception {
        CuratorFramework member = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(member);
        ConsumerId a = ConsumerId.ofOverride("scan1", "a");
        registry.members().register("scan1", a, MemberRegistration.of(Subscription.topics(Map.of("t", 1)), 1L), Duration.ZERO);
        registry.owners().claim("scan1", a, Map.of(new TopicAndPartition("t", 0), a.thread(0)));
        registry.offsets().commit("scan1", Map.of(new TopicAndPartition("t", 0), 42L, new TopicAndPartition("t", 1), 7L));
        registry.offsets().commit("scan2", Map.of(new TopicAndPartition("u", 3), 5L));
        registry.memberAlarms().write("scan1", a, List.of(new Unreadable("kafka:t-0", "cannot be fetched")));
        // the alarms of a member gone (its znode not yet expired) are not the group's
        registry.memberAlarms().write("scan2", ConsumerId.ofOverride("scan2", "gone"),
                List.of(new Unreadable("kafka:u-3", "cannot be fetched")));
        CuratorFramework raw = zk.newClient();
        raw.create().forPath("/consumers/scan2/offsets/u/4", "garbage".getBytes(StandardCharsets.UTF_8));
        raw.create().forPath("/consumers/scan2/offsets/u/x", OffsetCodec.encode(1));

        GroupScan scan = ZkRegistry.of(zk.newClient()).scan();
        assertThat(scan.groups()).contains("scan1", "scan2");
        Map<String, GroupScan.ScannedGroup> groups = scan.scan(List.of("scan1", "scan2", "nosuch"));

        GroupScan.ScannedGroup one = groups.get("scan1");
        assertThat(one.members()).containsExactly(a);
        assertThat(one.owners()).extracting(PartitionOwner::partition, PartitionOwner::thread)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(new TopicAndPartition("t", 0),
                        java.util.Optional.of(new ThreadId(a, 0))));
        assertThat(one.offsets()).containsOnlyKeys(new TopicAndPartition("t", 0), new TopicAndPartition("t", 1));
        GroupScan.StoredOffset t0 = one.offsets().get(new TopicAndPartition("t", 0));
        assertThat(t0.offset()).isEqualTo(42L);
        long mtime = raw.checkExists().forPath("/consumers/scan1/offsets/t/0").getMtime();
        assertThat(t0.mtime().toEpochMilli()).isEqualTo(mtime);
        assertThat(one.unreadable()).isEmpty();
        assertThat(one.alarmed()).containsExactly(a);

        GroupScan.ScannedGroup two = groups.get("scan2");
        assertThat(two.members()).isEmpty();
        assertThat(two.alarmed()).isEmpty();
        assertThat(two.offsets()).containsOnlyKeys(new TopicAndPartition("u", 3));
        assertThat(two.unreadable()).extracting(Unreadable::path)
                .containsExactly("/consumers/scan2/offsets/u/4", "/consumers/scan2/offsets/u/x");

        assertThat(groups.get("nosuch").offsets()).isEmpty();
    }
}
