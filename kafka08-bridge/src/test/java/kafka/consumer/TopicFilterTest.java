package kafka.consumer;

import io.zkgroups.registry.model.Subscription;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicFilterTest {

    @Test
    void commasBecomeAlternativesAndSpacesAndSurroundingQuotesGoAsIn082() {
        assertThat(new Whitelist(" orders, payments ,audit ").regex()).isEqualTo("orders|payments|audit");
        assertThat(new Whitelist("\"logs-.*\"").regex()).isEqualTo("logs-.*");
        assertThat(new Blacklist("'a , b'").regex()).isEqualTo("a|b");
        assertThat(new Whitelist("a, b")).hasToString("a|b");
    }

    @Test
    void aWhitelistTakesTopicsWhoseWholeNameMatches() {
        Whitelist filter = new Whitelist("orders, pay.*");
        assertThat(filter.isTopicAllowed("orders", true)).isTrue();
        assertThat(filter.isTopicAllowed("payments", true)).isTrue();
        assertThat(filter.isTopicAllowed("orders-eu", true)).as("the regex must match the whole name").isFalse();
        assertThat(filter.isTopicAllowed("old-orders", true)).isFalse();
    }

    @Test
    void aBlacklistTakesEverythingElse() {
        Blacklist filter = new Blacklist("internal.*");
        assertThat(filter.isTopicAllowed("orders", true)).isTrue();
        assertThat(filter.isTopicAllowed("internal-metrics", true)).isFalse();
    }

    @Test
    void theOffsetsTopicIsTakenOnlyWhenInternalTopicsAreNotExcluded() {
        assertThat(new Whitelist(".*").isTopicAllowed("__consumer_offsets", true)).isFalse();
        assertThat(new Whitelist(".*").isTopicAllowed("__consumer_offsets", false)).isTrue();
        assertThat(new Blacklist("orders").isTopicAllowed("__consumer_offsets", true)).isFalse();
        assertThat(new Blacklist("orders").isTopicAllowed("__consumer_offsets", false)).isTrue();
    }

    @Test
    void anInvalidRegexFailsAtConstructionNamingIt() {
        assertThatThrownBy(() -> new Whitelist("orders, (pay"))
                .isInstanceOf(RuntimeException.class)
                .hasMessage("orders|(pay is an invalid regex.");
    }

    @Test
    void filtersRegisterAsWhiteOrBlackListsWithTheNormalisedRegex() {
        assertThat(new Whitelist("a, b").subscription(3))
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, "a|b", 3));
        assertThat(new Blacklist("x").subscription(1))
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.BLACK_LIST, "x", 1));
    }

    @Test
    void filtersAreEqualByTheirRawRegexLikeScalaCaseClasses() {
        assertThat(new Whitelist("a,b")).isEqualTo(new Whitelist("a,b")).hasSameHashCodeAs(new Whitelist("a,b"));
        assertThat(new Whitelist("a,b")).isNotEqualTo(new Whitelist("a|b")).isNotEqualTo(new Blacklist("a,b"));
        assertThat(new Whitelist(" x ").rawRegex()).isEqualTo(" x ");
    }
}
