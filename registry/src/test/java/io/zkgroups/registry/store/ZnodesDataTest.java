package io.zkgroups.registry.store;

import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ZnodesDataTest {

    private static Stat stat(int version, long owner) {
        Stat stat = new Stat();
        stat.setVersion(version);
        stat.setEphemeralOwner(owner);
        return stat;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void dataWithEqualBytesInDistinctArraysAreEqualAndHashAlike() {
        Znodes.Data one = new Znodes.Data(utf8("42"), stat(3, 7));
        Znodes.Data other = new Znodes.Data(utf8("42"), stat(3, 7));

        assertThat(one).isEqualTo(other);
        assertThat(one.hashCode()).isEqualTo(other.hashCode());
    }

    @Test
    void dataDifferingInBytesOrStatDiffer() {
        Znodes.Data data = new Znodes.Data(utf8("42"), stat(3, 7));

        assertThat(data).isNotEqualTo(new Znodes.Data(utf8("43"), stat(3, 7)));
        assertThat(data).isNotEqualTo(new Znodes.Data(utf8("42"), stat(4, 7)));
        assertThat(data).isNotEqualTo(new Znodes.Data(null, stat(3, 7)));
        assertThat(new Znodes.Data(null, null)).isEqualTo(new Znodes.Data(null, null));
    }

    @Test
    void textDataPrintsAsTextAndBinaryAsHex() {
        assertThat(new Znodes.Data(utf8("{\"version\":1}"), stat(2, 0x1f)))
                .hasToString("Data[bytes=\"{\"version\":1}\", stat=[version=2, ephemeralOwner=0x1f]]");
        assertThat(new Znodes.Data(new byte[] {0, (byte) 0xff}, null))
                .hasToString("Data[bytes=0x00ff, stat=null]");
        assertThat(new Znodes.Data(new byte[0], stat(0, 0)).toString()).startsWith("Data[bytes=\"\",");
    }
}
