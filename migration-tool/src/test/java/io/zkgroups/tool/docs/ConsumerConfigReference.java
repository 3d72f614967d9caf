package io.zkgroups.tool.docs;

import io.zkgroups.rebalancer.config.ConfigKey;
import io.zkgroups.rebalancer.config.ConfigSection;
import io.zkgroups.rebalancer.config.ConsumerKeys;

import java.util.Locale;

/**
 * docs/consumer-config.md, written from {@link ConsumerKeys}, the table the consumer parses its configuration by: every
 * key with its type, default, Kafka's name of the same setting and meaning, as Kafka writes its configuration pages
 * from its {@code ConfigDef}s.
 */
final class ConsumerConfigReference {

    private ConsumerConfigReference() {
    }

    static String page() {
        StringBuilder page = new StringBuilder();
        page.append("# Consumer configuration reference\n\n")
                .append("<!-- Written from ConsumerKeys by GeneratedDocsTest: edit the key table, not this page. -->\n\n")
                .append("Every key `ZkGroupConsumer` (and the 0.8 bridge) reads, from the table it parses its configuration ")
                .append("by. What each 0.8.2.2 key does in zkgroups compared with 0.8.2.2, and the Kafka keys passed on ")
                .append("to the inner `KafkaConsumer`: [compatibility.md](compatibility.md#consumer-configuration).\n\n")
                .append("## 0.8.2.2 keys\n\n");
        table(page, ConfigSection.LEGACY);
        page.append("\n## zkgroups' own keys\n\n");
        table(page, ConfigSection.ZKGROUPS);
        page.append("\n## JVM system property\n\n")
                .append("`zkgroups.startup.warmup` (default `true`): when the consumer class initializes, a short-lived ")
                .append("daemon thread loads the platform MBean server and kafka-clients' protocol tables while the ")
                .append("consumer starts, so that the first fetch does not wait for them ")
                .append("([benchmarks.md](benchmarks.md#product-side-by-side-with-0822)). `false` turns it off. A JVM ")
                .append("property, as it runs before any consumer's properties are read.\n");
        return page.toString();
    }

    /** Text for a table cell: no line breaks, pipes escaped, and no {@code <group>} read as an HTML tag. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|").replace("<", "&lt;");
    }

    private static void table(StringBuilder page, ConfigSection section) {
        page.append("| key | type | default | Kafka's name | meaning |\n|---|---|---|---|---|\n");
        for (ConfigKey key : ConsumerKeys.all()) {
            if (key.section() != section) {
                continue;
            }
            page.append("| `").append(key.name()).append("` | ")
                    .append(key.type().name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(cell(key.defaultDoc())).append(" | ")
                    .append(key.kafkaName().map(k -> "`" + k + "`").orElse("—")).append(" | ")
                    .append(cell(key.doc())).append(" |\n");
        }
    }
}
