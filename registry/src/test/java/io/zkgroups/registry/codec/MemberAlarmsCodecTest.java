package io.zkgroups.registry.codec;

import io.zkgroups.registry.store.Unreadable;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemberAlarmsCodecTest {

    @Test
    void writesOneObjectPerAlarmAndReadsItBack() throws Exception {
        List<Unreadable> alarms = List.of(new Unreadable("kafka:t-0", "cannot be fetched: \"no\" broker since 12:00"),
                new Unreadable("/consumers/g/offsets/t/1", "not a number"));
        byte[] encoded = MemberAlarmsCodec.encode(alarms);
        assertThat(new String(encoded, StandardCharsets.UTF_8)).isEqualTo("{\"version\":1,\"alarms\":["
                + "{\"path\":\"kafka:t-0\",\"reason\":\"cannot be fetched: \\\"no\\\" broker since 12:00\"},"
                + "{\"path\":\"\\/consumers\\/g\\/offsets\\/t\\/1\",\"reason\":\"not a number\"}]}");
        assertThat(MemberAlarmsCodec.decode(encoded)).isEqualTo(alarms);
        assertThat(MemberAlarmsCodec.decode(MemberAlarmsCodec.encode(Collections.emptyList()))).isEmpty();
    }

    @Test
    void ignoresUnknownKeysAndRejectsWhatItCannotRead() throws Exception {
        assertThat(MemberAlarmsCodec.decode(bytes("{\"version\":2,\"extra\":[1],\"alarms\":[{\"path\":\"p\",\"more\":1}]}")))
                .containsExactly(new Unreadable("p", ""));
        assertThatThrownBy(() -> MemberAlarmsCodec.decode(bytes("{\"version\":1}")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("'alarms'");
        assertThatThrownBy(() -> MemberAlarmsCodec.decode(bytes("{\"alarms\":[3]}")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("not an object");
        assertThatThrownBy(() -> MemberAlarmsCodec.decode(bytes("{\"alarms\":[{\"reason\":\"r\"}]}")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("no 'path'");
        assertThatThrownBy(() -> MemberAlarmsCodec.decode(bytes("not json")))
                .isInstanceOf(DecodeException.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
