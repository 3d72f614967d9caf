package io.zkgroups.rebalancer.config;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.security.ZkClientSecurity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped consumer.properties, the docs and the member's defaults all follow the one table of keys. */
class ConsumerKeysTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern PROPERTY_LINE = Pattern.compile("^#?([a-z][a-zA-Z0-9_.-]*)=(.*)$");

    /** key → value of every property line, commented ({@code #key=value}) or not. */
    private static Map<String, String> shippedProperties() throws IOException {
        Map<String, String> lines = new LinkedHashMap<>();
        for (String line : Files.readAllLines(ROOT.resolve("tools/distribution/src/conf/consumer.properties"),
                StandardCharsets.UTF_8)) {
            Matcher m = PROPERTY_LINE.matcher(line);
            if (m.matches()) {
                lines.put(m.group(1), m.group(2));
            }
        }
        return lines;
    }

    @Test
    void consumerPropertiesShowsEveryKeyWithItsDefault() throws IOException {
        Map<String, String> shipped = shippedProperties();
        for (ConfigKey key : ConsumerKeys.all()) {
            assertThat(shipped).as("conf/consumer.properties lists " + key).containsKey(key.name());
            Object literal = key.defaultValue(other -> null);
            if (literal != null) {
                assertThat(shipped.get(key.name())).as("default of " + key).isEqualTo(literal.toString());
            }
        }
    }

    @Test
    void consumerPropertiesHasNoKeyTheConsumerDoesNotKnow() throws IOException {
        for (String key : shippedProperties().keySet()) {
            assertThat(ConsumerKeys.find(key) != null || ZkClientSecurity.isSecurityKey(key)
                    || ConsumerConfig.configNames().contains(key))
                    .as("conf/consumer.properties key " + key + " is a consumer, security or kafka-clients key").isTrue();
        }
    }

    @Test
    void theShippedFileIsAValidConfigurationAsItIs() throws IOException {
        Properties props = new Properties();
        props.load(Files.newBufferedReader(ROOT.resolve("tools/distribution/src/conf/consumer.properties")));
        assertThat(ZkConsumerConfig.from(props).warnings()).isEmpty();
    }

    @Test
    void bothDocsNameKafkasNameOfEverySettingThatHasOne() throws IOException {
        String properties = Files.readString(ROOT.resolve("tools/distribution/src/conf/consumer.properties"));
        List<String> rows = Files.readAllLines(ROOT.resolve("docs/compatibility.md"), StandardCharsets.UTF_8);
        for (ConfigKey key : ConsumerKeys.all()) {
            if (key.kafkaName().isEmpty() || key.kafkaName().get().equals(key.name())) {
                continue;
            }
            String kafka = key.kafkaName().get();
            assertThat(properties).as("conf/consumer.properties names " + kafka).contains("Kafka: " + kafka);
            assertThat(rows).as("docs/compatibility.md names " + kafka + " in the row of " + key)
                    .anySatisfy(row -> assertThat(row).startsWith("| ").contains("`" + key.name() + "`")
                            .contains("`" + kafka + "`"));
        }
    }

    @Test
    void compatibilityDocListsEveryKeyWithItsDefault() throws IOException {
        Map<String, String> documented = documentedDefaults(ROOT.resolve("docs/compatibility.md"));
        for (ConfigKey key : ConsumerKeys.all()) {
            assertThat(documented).as("docs/compatibility.md documents " + key).containsKey(key.name());
            assertThat(documented.get(key.name())).as("documented default of " + key).isEqualTo(key.defaultDoc());
        }
    }

    /**
     * The key → default cells of the configuration tables: a row lists one or more keys ({@code `a`, `b`}) and as many
     * defaults ({@code x, y}), or one default for all.
     */
    private static Map<String, String> documentedDefaults(Path doc) throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        Pattern row = Pattern.compile("^\\| ((?:`[a-z0-9_.]+`(?:, )?)+) \\| ([^|]+) \\|.*$");
        for (String line : Files.readAllLines(doc, StandardCharsets.UTF_8)) {
            Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            List<String> keys = Arrays.asList(m.group(1).replace("`", "").split(", "));
            List<String> values = Arrays.asList(m.group(2).trim().split(", "));
            for (int i = 0; i < keys.size(); i++) {
                defaults.putIfAbsent(keys.get(i), values.size() == keys.size() ? values.get(i) : m.group(2).trim());
            }
        }
        return defaults;
    }

    @Test
    void theMembersDefaultsAreTheConsumersDefaults() {
        Properties props = new Properties();
        props.setProperty("group.id", "g");
        props.setProperty("zookeeper.connect", "127.0.0.1:1");
        ConsumerId id = ConsumerId.ofOverride("g", "m");
        Subscription sub = Subscription.topics(Map.of("t", 1));

        GroupMemberConfig fromConsumer = ZkConsumerConfig.from(props).memberConfig(id, sub);

        assertThat(GroupMemberConfig.of("g", id, sub)).isEqualTo(fromConsumer);
    }
}
