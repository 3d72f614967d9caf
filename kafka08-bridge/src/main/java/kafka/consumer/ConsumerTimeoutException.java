package kafka.consumer;

/**
 * Thrown by {@link ConsumerIterator#hasNext()} and {@link ConsumerIterator#next()} when no message arrived within
 * {@code consumer.timeout.ms}; the iterator stays usable.
 */
public class ConsumerTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConsumerTimeoutException() {
        super();
    }
}
