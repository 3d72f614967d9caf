package kafka.serializer;

import kafka.utils.VerifiableProperties;

/** The identity decoder: the bytes as they are (0.8.2.2 {@code DefaultDecoder}). */
public class DefaultDecoder implements Decoder<byte[]> {

    /** {@code props} is ignored, as in 0.8.2.2 (Java callers usually pass {@code null}). */
    public DefaultDecoder(VerifiableProperties props) {
    }

    @Override
    public byte[] fromBytes(byte[] bytes) {
        return bytes;
    }
}
