package kafka.serializer;

import kafka.utils.VerifiableProperties;

import java.io.UnsupportedEncodingException;

/**
 * Bytes to a string in the charset of the property {@code serializer.encoding} (default {@code UTF8}), as 0.8.2.2's
 * {@code StringDecoder}; {@code props} may be {@code null}.
 */
public class StringDecoder implements Decoder<String> {

    private final String encoding;

    public StringDecoder(VerifiableProperties props) {
        this.encoding = props == null ? "UTF8" : props.getString("serializer.encoding", "UTF8");
    }

    public String encoding() {
        return encoding;
    }

    /**
     * @throws IllegalArgumentException if the configured encoding is not supported by this JVM
     */
    @Override
    public String fromBytes(byte[] bytes) {
        try {
            return new String(bytes, encoding);
        } catch (UnsupportedEncodingException e) {
            throw new IllegalArgumentException("serializer.encoding '" + encoding + "' is not supported", e);
        }
    }
}
