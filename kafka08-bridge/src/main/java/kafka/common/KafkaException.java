package kafka.common;

/** 0.8.2.2's generic Kafka failure; here, what a stream's iterator throws once its connector's fetcher failed. */
public class KafkaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KafkaException(String message, Throwable cause) {
        super(message, cause);
    }

    public KafkaException(String message) {
        super(message);
    }

    public KafkaException(Throwable cause) {
        super("", cause);
    }
}
