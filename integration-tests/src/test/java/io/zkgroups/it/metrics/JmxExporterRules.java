package io.zkgroups.it.metrics;

import javax.management.ObjectName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A jmx_exporter rule set written for a 0.8.2.2 consumer (the rules of a typical {@code kafka-0-8-2.yml}), applied as
 * jmx_exporter applies rules: each numeric attribute of an MBean is matched as {@code domain<k1=v1, k2=v2><>Attribute},
 * keys in the order the MBean was registered with, and the first rule that matches names the series.
 */
final class JmxExporterRules {

    /** One rule: a pattern, the series name and its labels ({@code $1}... refer to the pattern's groups). */
    record Rule(Pattern pattern, String name, Map<String, String> labels) {
        static Rule of(String pattern, String name, String... labelsAndValues) {
            Map<String, String> labels = new java.util.LinkedHashMap<>();
            for (int i = 0; i < labelsAndValues.length; i += 2) {
                labels.put(labelsAndValues[i], labelsAndValues[i + 1]);
            }
            return new Rule(Pattern.compile(pattern), name, labels);
        }
    }

    static final List<Rule> KAFKA_082_CONSUMER = List.of(
            Rule.of("kafka.server<type=FetcherLagMetrics, name=ConsumerLag, clientId=(.+), topic=(.+), partition=(.+)><>Value",
                    "kafka_consumer_lag", "client_id", "$1", "topic", "$2", "partition", "$3"),
            Rule.of("kafka.server<type=FetcherStats, name=(.+)PerSec, clientId=(.+), brokerHost=(.+), brokerPort=(.+)><>(Count|OneMinuteRate)",
                    "kafka_consumer_fetcher_$1_$5", "client_id", "$2", "broker", "$3:$4"),
            Rule.of("kafka.consumer<type=ConsumerTopicMetrics, name=(.+)PerSec, clientId=(.+), topic=(.+)><>(Count|OneMinuteRate)",
                    "kafka_consumer_topic_$1_$4", "client_id", "$2", "topic", "$3"),
            Rule.of("kafka.consumer<type=ConsumerTopicMetrics, name=(.+)PerSec, clientId=(.+)><>(Count|OneMinuteRate)",
                    "kafka_consumer_all_topics_$1_$3", "client_id", "$2"),
            Rule.of("kafka.consumer<type=ConsumerFetcherManager, name=(.+), clientId=(.+)><>Value",
                    "kafka_consumer_fetcher_manager_$1", "client_id", "$2"),
            Rule.of("kafka.consumer<type=ZookeeperConsumerConnector, name=FetchQueueSize, clientId=(.+), topic=(.+), threadId=(.+)><>Value",
                    "kafka_consumer_fetch_queue_size", "client_id", "$1", "topic", "$2", "thread", "$3"),
            Rule.of("kafka.consumer<type=ZookeeperConsumerConnector, name=OwnedPartitionsCount, clientId=(.+), groupId=(.+), topic=(.+)><>Value",
                    "kafka_consumer_owned_partitions", "client_id", "$1", "group", "$2", "topic", "$3"),
            Rule.of("kafka.consumer<type=ZookeeperConsumerConnector, name=OwnedPartitionsCount, clientId=(.+), groupId=(.+)><>Value",
                    "kafka_consumer_owned_partitions_total", "client_id", "$1", "group", "$2"),
            Rule.of("kafka.consumer<type=ZookeeperConsumerConnector, name=(.+)PerSec, clientId=(.+)><>(Count|OneMinuteRate)",
                    "kafka_consumer_$1_$3", "client_id", "$2"),
            Rule.of("kafka.consumer<type=ZookeeperConsumerConnector, name=RebalanceRateAndTime, clientId=(.+)><>(Count|Mean|99thPercentile)",
                    "kafka_consumer_rebalance_$2", "client_id", "$1"));

    private JmxExporterRules() {
    }

    /** The series {@code rules} make of {@code mbeans} (name to its numeric attributes), as {@code name{label="v",...}}. */
    static Set<String> series(List<Rule> rules, Map<ObjectName, Map<String, Object>> mbeans) {
        Set<String> series = new TreeSet<>();
        mbeans.forEach((name, attributes) -> attributes.forEach((attribute, value) -> {
            if (!(value instanceof Number)) {
                return; // jmx_exporter exports numbers only
            }
            String bean = name.getDomain() + "<" + name.getKeyPropertyListString().replace(",", ", ") + "><>" + attribute;
            for (Rule rule : rules) {
                Matcher m = rule.pattern().matcher(bean);
                if (m.matches()) {
                    List<String> labels = new ArrayList<>();
                    rule.labels().forEach((label, template) -> labels.add(label + "=\"" + substitute(template, m) + "\""));
                    series.add(substitute(rule.name(), m) + "{" + String.join(",", labels) + "}");
                    return;
                }
            }
        }));
        return series;
    }

    private static String substitute(String template, Matcher m) {
        String result = template;
        for (int g = m.groupCount(); g >= 1; g--) {
            result = result.replace("$" + g, m.group(g));
        }
        return result;
    }
}
