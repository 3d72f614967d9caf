package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A member's registration ({@code /consumers/G/ids/CID}): its subscription and registration time. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class MemberRegistration {
    private final Subscription subscription;
    private final String timestamp;
    private final Map<String, String> capabilities;

    /**
     * Creates it from its parts.
     *
     * @param subscription what it consumes
     * @param timestamp    registration time in millis as text (0.8.2.2 writes a JSON string; a number would break 0.8.2.2 readers); empty when another writer left it out
     * @param capabilities zkgroups-only facts (e.g. the assignor), written under an extra key that 0.8.2.2 readers ignore; empty means the registration is byte-identical to 0.8.2.2's
     */
    public MemberRegistration(Subscription subscription, String timestamp, Map<String, String> capabilities) {
        Objects.requireNonNull(subscription, "subscription cannot be null");
        Objects.requireNonNull(timestamp, "timestamp cannot be null");
        capabilities = Collections.unmodifiableMap(new LinkedHashMap<>(capabilities));
        this.subscription = subscription;
        this.timestamp = timestamp;
        this.capabilities = capabilities;
    }

    public static MemberRegistration of(Subscription subscription, long timestampMillis) {
        return new MemberRegistration(subscription, Long.toString(timestampMillis), Collections.emptyMap());
    }

    public MemberRegistration withCapabilities(Map<String, String> newCapabilities) {
        return new MemberRegistration(subscription, timestamp, newCapabilities);
    }

    public Subscription subscription() {
        return subscription;
    }

    public String timestamp() {
        return timestamp;
    }

    public Map<String, String> capabilities() {
        return capabilities;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof MemberRegistration)) {
            return false;
        }
        MemberRegistration that = (MemberRegistration) o;
        return Objects.equals(subscription, that.subscription)
                && Objects.equals(timestamp, that.timestamp)
                && Objects.equals(capabilities, that.capabilities);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(subscription);
        h = 31 * h + Objects.hashCode(timestamp);
        h = 31 * h + Objects.hashCode(capabilities);
        return h;
    }

    @Override
    public String toString() {
        return "MemberRegistration[subscription=" + subscription + ", timestamp=" + timestamp + ", capabilities=" + capabilities + "]";
    }
}
