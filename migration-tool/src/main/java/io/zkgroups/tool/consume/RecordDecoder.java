package io.zkgroups.tool.consume;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Turns a record's raw key and value into text with the deserializers named on the command line (Kafka's class
 * names: {@code StringDeserializer}, {@code org.apache.kafka.common.serialization.LongDeserializer}, ...). The
 * consumer fetches raw bytes, so a record that does not deserialize is one failed {@link Decoded}, not a failed poll.
 */
public final class RecordDecoder {

    private static final String KAFKA_PACKAGE = "org.apache.kafka.common.serialization.";

    /** A record as text, or why it could not be deserialized. */
    public sealed interface Decoded {
        record Text(String key, String value) implements Decoded {
        }

        record Failure(String reason) implements Decoded {
        }
    }

    private final Deserializer<?> keyDeserializer;
    private final Deserializer<?> valueDeserializer;

    public RecordDecoder(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer) {
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
    }

    /**
     * The deserializer class {@code name} (a simple name is looked up in Kafka's serialization package), configured.
     *
     * @param option the option that named it, for the error
     * @throws IllegalArgumentException when there is no such class or it is not a Kafka {@link Deserializer}
     */
    public static Deserializer<?> deserializer(String name, String option, boolean isKey) {
        String className = name.strip().contains(".") ? name.strip() : KAFKA_PACKAGE + name.strip();
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(option + " " + name + ": no class " + className + " (expected a Kafka "
                    + "Deserializer, e.g. StringDeserializer, ByteArrayDeserializer, LongDeserializer, IntegerDeserializer)");
        }
        if (!Deserializer.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(option + " " + name + ": " + className
                    + " is not an org.apache.kafka.common.serialization.Deserializer");
        }
        try {
            Deserializer<?> deserializer = (Deserializer<?>) type.getConstructor().newInstance();
            deserializer.configure(Map.of(), isKey);
            return deserializer;
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalArgumentException(option + " " + name + ": " + className + " has no public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(option + " " + name + ": " + className + " failed to start: "
                    + e.getCause());
        }
    }

    public Decoded decode(ConsumerRecord<byte[], byte[]> record) {
        String key;
        try {
            key = text(keyDeserializer.deserialize(record.topic(), record.headers(), record.key()));
        } catch (RuntimeException e) {
            return new Decoded.Failure("key: " + reason(e, keyDeserializer));
        }
        try {
            return new Decoded.Text(key, text(valueDeserializer.deserialize(record.topic(), record.headers(), record.value())));
        } catch (RuntimeException e) {
            return new Decoded.Failure("value: " + reason(e, valueDeserializer));
        }
    }

    /** Bytes print as UTF-8 text (Kafka's console consumer would print the array's identity), others as toString. */
    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (value instanceof ByteBuffer buffer) {
            return StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
        }
        return value.toString();
    }

    private static String reason(RuntimeException e, Deserializer<?> deserializer) {
        return deserializer.getClass().getSimpleName() + " failed: " + (e.getMessage() == null ? e.getClass().getName()
                : e.getMessage());
    }

    public void close() {
        keyDeserializer.close();
        valueDeserializer.close();
    }
}
