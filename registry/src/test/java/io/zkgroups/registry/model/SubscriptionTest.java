package io.zkgroups.registry.model;

import io.zkgroups.registry.ZkNames;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/** Subscriptions, docs/compatibility.md#member-registrations (TopicFilter normalisation and wildcard evaluation). */
class SubscriptionTest {

    @Test
    void whitelistIsNormalisedLike082TopicFilter() {
        Subscription.Wildcard whitelist = Subscription.whitelist(" \"T1, T\\d\" ", 2);

        assertThat(whitelist.regex()).isEqualTo("T1|T\\d");
        assertThat(whitelist.pattern()).isEqualTo("white_list");
        assertThat(whitelist.streams()).isEqualTo(2);
    }

    @Test
    void normalisationStripsRunsOfQuotesOnlyAtTheEnds() {
        assertThat(Subscription.Wildcard.normalize("'\"a'b\"'")).isEqualTo("a'b");
        assertThat(Subscription.Wildcard.normalize("  A , B  ")).isEqualTo("A|B");
    }

    @Test
    void aCommaInsideACountedRepetitionIsTurnedIntoAnAlternationLike082() {
        assertThat(Subscription.Wildcard.normalize("\\d{1,3}")).isEqualTo("\\d{1|3}");
        assertThatThrownBy(() -> Subscription.whitelist("\\d{1,3}", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void blacklistKeepsARegexThatNeedsNoNormalisation() {
        Subscription.Wildcard blacklist = Subscription.blacklist("A|B", 1);

        assertThat(blacklist.regex()).isEqualTo("A|B");
        assertThat(blacklist.pattern()).isEqualTo("black_list");
    }

    @Test
    void wildcardIsEvaluatedAgainstExistingTopicsExcludingTheOffsetsTopicWhenAsked() {
        List<String> existing = List.of("T1", "T2", "T10", "X", Subscription.OFFSETS_TOPIC);

        assertThat(Subscription.whitelist("T1, T\\d", 3).topicStreams(existing, true))
                .containsExactly(entry("T1", 3), entry("T2", 3));
        assertThat(Subscription.blacklist("T\\d+", 1).topicStreams(existing, true))
                .containsExactly(entry("X", 1));
        assertThat(Subscription.blacklist("T\\d+", 1).topicStreams(existing, false))
                .containsOnlyKeys("X", Subscription.OFFSETS_TOPIC);
    }

    @Test
    void aSubscriptionDeclaresAtMostMaxStreamsInAll() {
        assertThat(Subscription.topics(Map.of("a", 4_000, "b", 6_000)).streamsPerTopic()).hasSize(2);
        assertThat(Subscription.whitelist("a.*", Subscription.MAX_STREAMS).streams()).isEqualTo(Subscription.MAX_STREAMS);

        assertThatThrownBy(() -> Subscription.topics(Map.of("a", 4_000, "b", 6_001)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declares 10001 streams in all");
        assertThatThrownBy(() -> Subscription.topics(Map.of("a", Integer.MAX_VALUE, "b", Integer.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declares 4294967294 streams");
        assertThatThrownBy(() -> Subscription.blacklist("a", Subscription.MAX_STREAMS + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void staticSubscriptionKeepsTheCallersOrder() {
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put("zeta", 1);
        topics.put("alpha", 2);
        topics.put("mid", 3);

        assertThat(Subscription.topics(topics).streamsPerTopic().keySet()).containsExactly("zeta", "alpha", "mid");
    }

    @Test
    void staticSubscriptionRejectsIllegalTopicsAndNegativeCounts() {
        assertThatThrownBy(() -> Subscription.topics(Map.of("a/b", 1)))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("a/b");
        assertThatThrownBy(() -> Subscription.topics(Map.of("a", -1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void wildcardRejectsAnInvalidRegex() {
        assertThatThrownBy(() -> Subscription.whitelist("(", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(");
    }
}
