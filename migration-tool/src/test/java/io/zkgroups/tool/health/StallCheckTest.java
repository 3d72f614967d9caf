package io.zkgroups.tool.health;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class StallCheckTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition A = new TopicAndPartition("t", 0);
    private static final TopicAndPartition B = new TopicAndPartition("t", 1);

    @Test
    void aZooKeeperOffsetWithBacklogIsJudgedByItsMtimeAtOnce() {
        StallCheck check = new StallCheck(Duration.ofSeconds(30));
        StallCheck.Result r = check.evaluate(Map.of(
                A, new StallCheck.Progress(10, 50, T0.minusSeconds(31)),
                B, new StallCheck.Progress(10, 50, T0.minusSeconds(29))), T0);
        assertThat(r.stalled()).singleElement().asString().startsWith("t:0 at offset 10 with 40 records behind")
                .contains("(ZooKeeper mtime)");
        assertThat(r.judgeableAt()).isEmpty();
    }

    @Test
    void noBacklogIsNeverAStall() {
        StallCheck check = new StallCheck(Duration.ofSeconds(30));
        assertThat(check.evaluate(Map.of(A, new StallCheck.Progress(50, 50, T0.minusSeconds(3600))), T0).stalled()).isEmpty();
    }

    @Test
    void aKafkaOffsetIsWatchedForTheWholeTimeBeforeItIsJudged() {
        StallCheck check = new StallCheck(Duration.ofSeconds(30));
        StallCheck.Result first = check.evaluate(Map.of(A, new StallCheck.Progress(10, 50, null)), T0);
        assertThat(first.stalled()).isEmpty();
        assertThat(first.judgeableAt()).isEqualTo(Optional.of(T0.plusSeconds(30)));
        StallCheck.Result later = check.evaluate(Map.of(A, new StallCheck.Progress(10, 60, null)), T0.plusSeconds(30));
        assertThat(later.stalled()).singleElement().asString().contains("unchanged for 30 s (as watched)");
    }

    @Test
    void aKafkaOffsetThatMovedWhileWatchedHasAdvancedAndIsNotWaitedFor() {
        StallCheck check = new StallCheck(Duration.ofSeconds(30));
        check.evaluate(Map.of(A, new StallCheck.Progress(10, 50, null)), T0);
        StallCheck.Result moved = check.evaluate(Map.of(A, new StallCheck.Progress(20, 60, null)), T0.plusSeconds(30));
        assertThat(moved.stalled()).isEmpty();
        assertThat(moved.judgeableAt()).isEmpty();
    }
}
