package kafka.common;

/** The group would not take this consumer (for instance zkgroups.max.group.size is reached). */
public class ConsumerRebalanceFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConsumerRebalanceFailedException(String message) {
        super(message);
    }

    public ConsumerRebalanceFailedException() {
        super();
    }
}
