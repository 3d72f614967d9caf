package io.zkgroups.rebalancer.restart;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a member stopping for a restart leaves to its successor: the ZooKeeper session it owns its partitions in (id
 * and password), its consumer id and group, its registration's subscription (for the record: the successor compares
 * its own with the znode), the partitions it owned with the consumer thread of each, and when it let go.
 * <p>
 * Written as Java properties text, one key per line, e.g.
 * <pre>
 * session=0x1000a2b3c4d0001
 * password=q8Tz...
 * group=billing
 * consumer.id=billing_host-1700000000000-1a2b3c4d
 * subscription={"version":1,"subscription":{"payments":2},"pattern":"static","timestamp":"1700000000000"}
 * released.at=1700000012345
 * owned.payments/0=billing_host-1700000000000-1a2b3c4d-0
 * </pre>
 */
public final class HandoverTicket {
    private static final String OWNED = "owned.";

    private final SessionCredentials session;
    private final String group;
    private final ConsumerId consumerId;
    private final String subscription;
    private final SortedMap<TopicAndPartition, ThreadId> owned;
    private final Instant releasedAt;

    public HandoverTicket(SessionCredentials session, String group, ConsumerId consumerId, String subscription,
                          SortedMap<TopicAndPartition, ThreadId> owned, Instant releasedAt) {
        Objects.requireNonNull(session, "session cannot be null");
        Objects.requireNonNull(group, "group cannot be null");
        Objects.requireNonNull(consumerId, "consumerId cannot be null");
        Objects.requireNonNull(subscription, "subscription cannot be null");
        this.owned = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(owned));
        Objects.requireNonNull(releasedAt, "releasedAt cannot be null");
        this.session = session;
        this.group = group;
        this.consumerId = consumerId;
        this.subscription = subscription;
        this.releasedAt = releasedAt;
    }

    /** Whether a successor starting at {@code now} may still resume the session: within {@code grace} of the release. */
    public boolean resumableAt(Instant now, Duration grace) {
        return !now.isBefore(releasedAt) && now.isBefore(releasedAt.plus(grace));
    }

    public String encode() {
        Properties p = new Properties();
        p.setProperty("session", session.hexId());
        p.setProperty("password", Base64.getEncoder().encodeToString(session.password()));
        p.setProperty("group", group);
        p.setProperty("consumer.id", consumerId.value());
        p.setProperty("subscription", subscription);
        p.setProperty("released.at", Long.toString(releasedAt.toEpochMilli()));
        owned.forEach((tp, thread) -> p.setProperty(OWNED + tp.topic() + "/" + tp.partition(), thread.toString()));
        StringWriter out = new StringWriter();
        try {
            p.store(out, "zkgroups session hand-over: read once by the next process of this consumer");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * @param origin where the text came from, for the error message
     * @throws IllegalArgumentException naming {@code origin} and the bad or missing key
     */
    public static HandoverTicket decode(String text, String origin) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + " is not a hand-over file: " + e.getMessage());
        }
        String sessionText = required(p, "session", origin);
        long sessionId;
        byte[] password;
        try {
            sessionId = Long.parseUnsignedLong(sessionText.startsWith("0x") ? sessionText.substring(2) : sessionText, 16);
            password = Base64.getDecoder().decode(required(p, "password", origin));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": bad session or password (" + e.getMessage() + ")");
        }
        SortedMap<TopicAndPartition, ThreadId> owned = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(OWNED)) {
                owned.put(partition(key.substring(OWNED.length()), origin),
                        ThreadId.parse(p.getProperty(key)).orElseThrow(() -> new IllegalArgumentException(
                                origin + ": " + key + " is not a consumer thread id: " + p.getProperty(key))));
            }
        }
        long releasedAt;
        try {
            releasedAt = Long.parseLong(required(p, "released.at", origin));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(origin + ": released.at must be epoch milliseconds");
        }
        try {
            return new HandoverTicket(new SessionCredentials(sessionId, password), required(p, "group", origin),
                    new ConsumerId(required(p, "consumer.id", origin)), required(p, "subscription", origin), owned,
                    Instant.ofEpochMilli(releasedAt));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage());
        }
    }

    private static TopicAndPartition partition(String text, String origin) {
        int slash = text.lastIndexOf('/');
        try {
            return new TopicAndPartition(text.substring(0, slash), Integer.parseInt(text.substring(slash + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(origin + ": owned." + text + " does not name a partition as topic/number");
        }
    }

    private static String required(Properties p, String key, String origin) {
        String value = p.getProperty(key);
        if (value == null || value.trim().isEmpty()) {
            throw new IllegalArgumentException(origin + " has no " + key);
        }
        return value.trim();
    }

    @Override
    public String toString() {
        return "hand-over of " + consumerId + " in group " + group + " (" + session + ", owned " + owned.keySet() + ")";
    }

    public SessionCredentials session() {
        return session;
    }

    public String group() {
        return group;
    }

    public ConsumerId consumerId() {
        return consumerId;
    }

    public String subscription() {
        return subscription;
    }

    public SortedMap<TopicAndPartition, ThreadId> owned() {
        return owned;
    }

    public Instant releasedAt() {
        return releasedAt;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof HandoverTicket)) {
            return false;
        }
        HandoverTicket that = (HandoverTicket) other;
        return Objects.equals(session, that.session) && Objects.equals(group, that.group)
                && Objects.equals(consumerId, that.consumerId) && Objects.equals(subscription, that.subscription)
                && Objects.equals(owned, that.owned) && Objects.equals(releasedAt, that.releasedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(session, group, consumerId, subscription, owned, releasedAt);
    }
}
