package kafka.serializer;

/** Turns the bytes of a message's key or value into an object (0.8.2.2 {@code kafka.serializer.Decoder}). */
public interface Decoder<T> {

    T fromBytes(byte[] bytes);
}
