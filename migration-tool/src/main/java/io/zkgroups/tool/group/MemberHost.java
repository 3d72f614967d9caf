package io.zkgroups.tool.group;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host of a member, read from its generated consumer id {@code G_host-millis-hex8} (0.8.2.2 registrations
 * carry no host field). Ids set with {@code consumer.id} carry no host: empty then. Pure.
 */
public final class MemberHost {

    private static final Pattern GENERATED = Pattern.compile("(.+)-(\\d{10,})-([0-9a-f]{1,8})");

    private MemberHost() {
    }

    public static Optional<String> of(String group, String consumerId) {
        String prefix = group + "_";
        if (consumerId == null || !consumerId.startsWith(prefix)) {
            return Optional.empty();
        }
        Matcher m = GENERATED.matcher(consumerId.substring(prefix.length()));
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
