package io.zkgroups.registry.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A member's registration ({@code /consumers/G/ids/CID}): its subscription and registration time.
 *
 * @param subscription what it consumes
 * @param timestamp    registration time in millis as text (0.8.2.2 writes a JSON string; a number would
 *                     break 0.8.2.2 readers); empty when another writer left it out
 * @param capabilities zkgroups-only facts (e.g. the assignor), written under an extra key that 0.8.2.2
 *                     readers ignore; empty means the registration is byte-identical to 0.8.2.2's
 */
public record MemberRegistration(Subscription subscription, String timestamp, Map<String, String> capabilities) {

    public MemberRegistration {
        Objects.requireNonNull(subscription, "subscription cannot be null");
        Objects.requireNonNull(timestamp, "timestamp cannot be null");
        capabilities = Collections.unmodifiableMap(new LinkedHashMap<>(capabilities));
    }

    public static MemberRegistration of(Subscription subscription, long timestampMillis) {
        return new MemberRegistration(subscription, Long.toString(timestampMillis), Map.of());
    }

    public MemberRegistration withCapabilities(Map<String, String> newCapabilities) {
        return new MemberRegistration(subscription, timestamp, newCapabilities);
    }
}
