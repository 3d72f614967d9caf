package io.zkgroups.tool.reset;

import io.zkgroups.registry.ZkNames;

import java.util.Set;
import java.util.TreeSet;

/**
 * One {@code --topic} value: {@code T} (every partition) or {@code T:0,1,5} (those partitions). Pure.
 *
 * @param partitions the listed partitions, or null for all
 */
public record TopicScope(String topic, Set<Integer> partitions) {

    public static TopicScope parse(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        if (colon < 0) {
            ZkNames.requireValid("topic", t);
            return new TopicScope(t, null);
        }
        String topic = t.substring(0, colon);
        ZkNames.requireValid("topic", topic);
        Set<Integer> partitions = new TreeSet<>();
        for (String p : t.substring(colon + 1).split(",")) {
            String s = p.strip();
            if (s.isEmpty() || !s.chars().allMatch(Character::isDigit) || s.length() > 9) {
                throw new IllegalArgumentException("invalid partition '" + s + "' in --topic " + text
                        + " (expected TOPIC or TOPIC:0,1,2)");
            }
            partitions.add(Integer.parseInt(s));
        }
        return new TopicScope(topic, partitions);
    }
}
