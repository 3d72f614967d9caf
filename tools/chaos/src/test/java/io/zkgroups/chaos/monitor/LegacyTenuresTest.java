package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.MemberEvent;
import io.zkgroups.chaos.monitor.History.OffsetWrite;
import io.zkgroups.chaos.monitor.History.OwnerChange;
import io.zkgroups.chaos.monitor.History.OwnerChange.Cause;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.zkgroups.chaos.monitor.Histories.ms;
import static org.assertj.core.api.Assertions.assertThat;

class LegacyTenuresTest {

    private static final long LEGACY_SESSION = 7;

    @Test
    void aLegacyConsumersTenuresAndCommitsComeFromZooKeeper() {
        List<OwnerChange> owners = List.of(
                new OwnerChange(ms(100), 1, 0, "l2-1", LEGACY_SESSION, Cause.CREATE),
                new OwnerChange(ms(300), 3, 0, null, LEGACY_SESSION, Cause.DELETE),
                new OwnerChange(ms(310), 4, 0, "m0-1", 9, Cause.CREATE),
                new OwnerChange(ms(400), 5, 1, "l2-1", LEGACY_SESSION, Cause.CREATE),
                new OwnerChange(ms(900), 6, 1, null, LEGACY_SESSION, Cause.SESSION_END));
        List<OffsetWrite> offsets = List.of(
                new OffsetWrite(ms(200), 2, 0, 10L, LEGACY_SESSION, false),
                new OffsetWrite(ms(320), 5, 0, 12L, 9, false));
        Map<String, List<MemberEvent>> events = Map.of(
                "l2-1", List.of(new MemberEvent(ms(50), "START", Set.of(), Map.of(), "g_l2-1 - legacy")),
                "m0-1", List.of(new MemberEvent(ms(305), "ASSIGNED", Set.of(0), Map.of(), "")));

        Map<String, List<MemberEvent>> enriched = LegacyTenures.enrich(events, Set.of("l2-1"), owners, offsets);

        assertThat(enriched.get("l2-1")).extracting(e -> e.kind() + "@" + e.nanos() / 1_000_000 + e.partitions() + e.offsets())
                .containsExactly("START@50[]{}", "ASSIGNED@100[0]{}", "COMMIT@200[]{0=10}", "COMMITTED@200[]{}",
                        "REVOKED@350[0]{}", "ASSIGNED@400[1]{}", "LOST@950[1]{}");
        assertThat(enriched.get("m0-1")).as("zkgroups members keep their own account").hasSize(1);
    }

    @Test
    void aMoveFromALegacyConsumerIsCheckedLikeAnyOther() {
        Histories h = new Histories()
                .acked(0, 0, 19, 100)
                .handedOut("l2-1", 0, 0, 9, 180) // stamped when read, a little late
                .handedOut("m0-1", 0, 10, 19, 400)
                .closed("m0-1", 900);
        History plain = h.build();
        List<OwnerChange> owners = List.of(
                new OwnerChange(ms(100), 1, 0, "l2-1", LEGACY_SESSION, Cause.CREATE),
                new OwnerChange(ms(300), 3, 0, null, LEGACY_SESSION, Cause.DELETE),
                new OwnerChange(ms(310), 4, 0, "m0-1", 9, Cause.CREATE));
        List<OffsetWrite> offsets = List.of(new OffsetWrite(ms(200), 2, 0, 10L, LEGACY_SESSION, false));
        Map<String, List<MemberEvent>> events = new java.util.TreeMap<>(plain.events());
        events.put("l2-1", List.of());
        events.put("m0-1", List.of(new MemberEvent(ms(305), "ASSIGNED", Set.of(0), Map.of(), ""),
                new MemberEvent(ms(900), "CLOSED", Set.of(), Map.of(), "")));
        History mixed = new History(plain.acks(), plain.deliveries(),
                LegacyTenures.enrich(events, Set.of("l2-1"), owners, offsets), plain.processEnds(), owners, offsets, true,
                Map.of(), Set.of("l2-1"), null, new java.util.TreeMap<>(), List.of(), Long.MIN_VALUE, Map.of(),
                Map.of(), List.of());

        Verdict v = InvariantMonitor.check(mixed, new InvariantMonitor.Bounds(java.time.Duration.ofSeconds(60),
                java.time.Duration.ofMillis(5)));

        assertThat(v.violations()).isEmpty();
    }
}
