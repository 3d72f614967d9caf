package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code groups describe} as Kafka's {@code --describe}: several {@code --group}s or {@code --all-groups}, and the
 * {@code --members} and {@code --state} views, as tables and JSON, against real ZooKeeper and Kafka.
 */
@Timeout(120)
class DescribeViewsCliIT {

    private static CliCluster c;

    /** views-a: stable, two members (host1 owns 0,1; c2 owns 2 — range order); views-b: empty, offsets only. */
    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("views", 3);
        c.fill("views", 3, 4);
        c.setZk("views-a", "views", 0, 1);
        CliCluster.Member host1 = c.member("views-a", "a1-1795988905284-59cb08f9", Map.of("views", 2));
        CliCluster.Member c2 = c.member("views-a", "c2", Map.of("views", 1));
        // range over [a1...-0, a1...-1, c2-0]: a1-0 gets 0, a1-1 gets 1, c2-0 gets 2
        host1.claim("views", 0, 0);
        host1.claim("views", 1, 1);
        c2.claim("views", 0, 2);
        c.setZk("views-b", "views", 1, 3);
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void membersViewShowsEachMembersHostThreadsAndOwnedPartitions() throws Exception {
        CliCluster.Run table = c.cli("groups", "describe", "--group", "views-a", "--members");
        CliCluster.Run json = c.cli("groups", "describe", "--group", "views-a", "--members", "--output", "json");

        assertThat(table.code()).as(table.toString()).isZero();
        assertThat(table.out().lines().findFirst().orElseThrow())
                .matches("GROUP\\s+CONSUMER-ID\\s+HOST\\s+THREADS\\s+#PARTITIONS\\s+ASSIGNMENT\\s+SUBSCRIPTION");
        assertThat(table.out()).containsPattern("views-a\\s+views-a_a1-1795988905284-59cb08f9\\s+a1\\s+2\\s+2\\s+views:0,1\\s+views:2")
                .containsPattern("views-a\\s+views-a_c2\\s+-\\s+1\\s+1\\s+views:2\\s+views:1");
        JsonNode d = json.json();
        assertThat(d.path("group").asText()).isEqualTo("views-a");
        JsonNode first = d.path("members").get(0);
        assertThat(first.path("consumerId").asText()).isEqualTo("views-a_a1-1795988905284-59cb08f9");
        assertThat(first.path("host").asText()).isEqualTo("a1");
        assertThat(first.path("threads").asInt()).isEqualTo(2);
        assertThat(first.path("partitions").asInt()).isEqualTo(2);
        assertThat(first.path("assignment").path("views").toString()).isEqualTo("[0,1]");
        assertThat(d.path("members").get(1).path("assignment").path("views").toString()).isEqualTo("[2]");
    }

    @Test
    void stateViewShowsStateMembersStrategyPhaseAndZooKeeperAsCoordinator() throws Exception {
        CliCluster.Run table = c.cli("groups", "describe", "--group", "views-a", "--group", "views-b", "--state");
        CliCluster.Run json = c.cli("groups", "describe", "--group", "views-a", "--state", "--output", "json");

        assertThat(table.code()).as(table.toString()).isZero();
        assertThat(table.out()).containsPattern("views-a\\s+stable\\s+2\\s+range\\s+zookeeper-only\\s+3/3\\s+"
                        + java.util.regex.Pattern.quote(c.zookeeper() + " /consumers/views-a"))
                .containsPattern("views-b\\s+empty\\s+0\\s+range\\s+zookeeper-only\\s+0/1\\s+");
        JsonNode s = json.json();
        assertThat(s.path("state").asText()).isEqualTo("stable");
        assertThat(s.path("members").asInt()).isEqualTo(2);
        assertThat(s.path("strategy").asText()).isEqualTo("range");
        assertThat(s.path("phase").asText()).isEqualTo("zookeeper-only");
        assertThat(s.path("ownedPartitions").asInt()).isEqualTo(3);
        assertThat(s.path("coordinator").path("zookeeper").asText()).isEqualTo(c.zookeeper());
        assertThat(s.path("coordinator").path("znode").asText()).isEqualTo("/consumers/views-a");
    }

    @Test
    void anUnknownGroupAmongSeveralIsNamedExits3AndTheOthersArePrinted() throws Exception {
        CliCluster.Run table = c.cli("groups", "describe", "--group", "views-a", "--group", "nope", "--group", "views-b");
        CliCluster.Run json = c.cli("groups", "describe", "--group", "views-a", "--group", "nope", "--output", "json");

        assertThat(table.code()).as(table.toString()).isEqualTo(3);
        assertThat(table.err()).contains("zkgroups: group nope not found");
        assertThat(table.out()).contains("GROUP views-a  STATE stable").contains("GROUP views-b  STATE empty")
                .doesNotContain("nope");
        assertThat(json.code()).isEqualTo(3);
        JsonNode doc = json.json();
        assertThat(doc.path("groups")).hasSize(1);
        assertThat(doc.path("groups").get(0).path("group").asText()).isEqualTo("views-a");
        assertThat(doc.path("unknownGroups").toString()).isEqualTo("[\"nope\"]");
    }

    @Test
    void allGroupsDescribesEveryGroupUnderConsumers() throws Exception {
        CliCluster.Run run = c.cli("groups", "describe", "--all-groups", "--state", "--output", "json");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.json().path("groups").findValuesAsText("group")).contains("views-a", "views-b");
    }

    @Test
    void badCombinationsAreUsageErrors() {
        assertThat(c.cli("groups", "describe", "--group", "views-a", "--members", "--state").code()).isEqualTo(2);
        CliCluster.Run both = c.cli("groups", "describe", "--group", "views-a", "--all-groups");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("give --group G (repeatable) or --all-groups");
    }
}
