package io.zkgroups.registry.codec;

import java.nio.charset.StandardCharsets;

/**
 * Runs every znode codec once on sample data, with no I/O. In a fresh JVM the first decode pays for Jackson's set-up
 * and the codecs' class loading (a few hundred milliseconds on a loaded machine); a process that has time before the
 * group waits for it (a successor waiting for its predecessor's ticket) pays it then instead of after.
 */
public final class CodecWarmUp {

    private static final byte[] MEMBER = bytes("{\"version\":1,\"subscription\":{\"T1\":1,\"T2\":1},\"pattern\":\"static\","
            + "\"timestamp\":\"1795988925195\",\"zkgroups\":{\"assignor\":\"sticky\",\"sticky\":\"1\",\"v\":\"1\"}}");
    private static final byte[] WILDCARD = bytes("{\"version\":1,\"subscription\":{\"T1|T\\\\d\":2},"
            + "\"pattern\":\"white_list\",\"timestamp\":\"1795988925551\"}");
    private static final byte[] BROKER = bytes("{\"jmx_port\":9999,\"timestamp\":\"1795989019637\","
            + "\"host\":\"broker3.example.com\",\"version\":1,\"port\":9092}");
    private static final byte[] TOPIC = bytes("{\"version\":1,\"partitions\":{\"0\":[1,2],\"1\":[2,3]}}");
    private static final byte[] STATE = bytes("{\"controller_epoch\":1,\"leader\":1,\"version\":1,\"leader_epoch\":0,"
            + "\"isr\":[1,2]}");

    private CodecWarmUp() {
    }

    /**
     * Decodes and encodes one sample of each kind of znode. Never throws: a failure only means it warmed less, and
     * returns false.
     */
    public static boolean run() {
        try {
            MemberRegistrationCodec.encode(MemberRegistrationCodec.decode(MEMBER));
            MemberRegistrationCodec.encode(MemberRegistrationCodec.decode(WILDCARD));
            BrokerInfoCodec.encode(BrokerInfoCodec.decode(3, BROKER));
            TopicRegistrationCodec.encode(TopicRegistrationCodec.decode(TOPIC));
            PartitionStateCodec.encode(PartitionStateCodec.decode(STATE));
            OffsetCodec.decode(OffsetCodec.encode(42));
            return true;
        } catch (DecodeException | RuntimeException e) {
            return false; // the real reads report what is wrong with real data
        }
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
