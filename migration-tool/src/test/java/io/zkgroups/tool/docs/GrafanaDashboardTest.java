package io.zkgroups.tool.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/grafana-dashboard.json queries only series the exporter serves, as docs/monitoring.md lists them. */
class GrafanaDashboardTest {

    private static final Path DOCS = Path.of("..").toAbsolutePath().normalize().resolve("docs");
    private static final Pattern SERIES = Pattern.compile("zkgroups_[a-z_]+");

    @Test
    void everySeriesTheDashboardQueriesIsAnExportedOne() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DOCS.resolve("grafana-dashboard.json").toFile());
        Set<String> queried = new TreeSet<>();
        dashboard.findValues("expr").forEach(e -> collect(e.asText(), queried));
        dashboard.findValues("definition").forEach(e -> collect(e.asText(), queried));
        Set<String> documented = new TreeSet<>();
        collect(Files.readString(DOCS.resolve("monitoring.md")), documented);
        assertThat(queried).isNotEmpty().contains("zkgroups_group_max_lag_seconds", "zkgroups_group_rebalances_total",
                "zkgroups_group_audit_events_total", "zkgroups_group_membership_changes_total");
        assertThat(documented).containsAll(queried);
    }

    private static void collect(String text, Set<String> into) {
        Matcher m = SERIES.matcher(text);
        while (m.find()) {
            into.add(m.group());
        }
    }
}
