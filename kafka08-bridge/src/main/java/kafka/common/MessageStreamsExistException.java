package kafka.common;

/** A connector creates its message streams once; a second call throws this (as 0.8.2.2). */
public class MessageStreamsExistException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MessageStreamsExistException(String message, Throwable cause) {
        super(message, cause);
    }
}
