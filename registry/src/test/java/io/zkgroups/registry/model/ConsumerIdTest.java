package io.zkgroups.registry.model;

import io.zkgroups.registry.ZkNames;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Consumer ids, docs/compatibility.md#consumer-ids and the consumer id rows of
 * docs/compatibility.md#identifier-vectors.
 */
class ConsumerIdTest {

    @Test
    void configuredConsumerIdIsPrefixedWithTheGroupLike082() {
        ConsumerId id = ConsumerId.ofOverride("glive", "c1");

        assertThat(id.value()).isEqualTo("glive_c1");
        assertThat(id).hasToString("glive_c1");
    }

    @Test
    void threadIdsOfAConfiguredConsumerAreCidDashIndex() {
        ConsumerId id = ConsumerId.ofOverride("glive", "c1");

        assertThat(id.thread(0)).hasToString("glive_c1-0");
        assertThat(id.thread(1)).hasToString("glive_c1-1");
    }

    @Test
    void generatedIdIsGroupHostMillisAndFirstEightHexDigitsOfTheUuidMsb() {
        UUID uuid = new UUID(0x59cb08f9_1a2b_4c3dL, 0x8e9f_0a1b_2c3d_4e5fL);

        ConsumerId id = ConsumerId.generated("glive", "vm", 1795988905284L, uuid);

        assertThat(id.value()).isEqualTo("glive_vm-1795988905284-59cb08f9");
    }

    @Test
    void generatedIdUsesLongToHexStringSoALeadingZeroDigitIsDropped() {
        UUID uuid = UUID.fromString("0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0");

        ConsumerId id = ConsumerId.generated("g", "h", 1, uuid);

        assertThat(id.value()).isEqualTo("g_h-1-f1e2d3c4");
    }

    @Test
    void generatedIdOfANegativeMsbTakesTheTwosComplementHex() {
        UUID uuid = UUID.fromString("f0e1d2c3-b4a5-4978-8695-a4b3c2d1e0f0");

        assertThat(ConsumerId.generated("g", "h", 1, uuid).value()).isEqualTo("g_h-1-f0e1d2c3");
    }

    @Test
    void generatedIdKeepsOnlyZnodeSafeCharactersOfTheHostName() {
        UUID uuid = new UUID(0x59cb08f9_1a2b_4c3dL, 1L);

        assertThat(ConsumerId.generated("g", "fe80::1%eth0", 5, uuid).value()).isEqualTo("g_fe80__1_eth0-5-59cb08f9");
        assertThat(ConsumerId.generated("g", "host.example-1", 5, uuid).value()).isEqualTo("g_host.example-1-5-59cb08f9");
        assertThat(ConsumerId.generated("g", null, 5, uuid).value()).startsWith("g_unknown-host-5-");
    }

    @Test
    void configuredConsumerIdMustBeALegalName() {
        assertThatThrownBy(() -> ConsumerId.ofOverride("g", "a/b"))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("a/b");
        assertThatThrownBy(() -> ConsumerId.ofOverride("bad group", "c1"))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("bad group");
        assertThatThrownBy(() -> ConsumerId.generated("", "h", 1, UUID.randomUUID()))
                .isInstanceOf(ZkNames.InvalidNameException.class);
    }

    @Test
    void idsReadFromZooKeeperMayBeOutsideTheCharsetButNeverEscapeTheirParent() {
        assertThat(new ConsumerId("g_host name-1-abc").value()).isEqualTo("g_host name-1-abc");

        for (String bad : new String[] {"", ".", "..", "a/b"}) {
            assertThatThrownBy(() -> new ConsumerId(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> new ConsumerId(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void consumerIdsAreOrderedByStringCompareTo() {
        assertThat(new ConsumerId("c10")).isLessThan(new ConsumerId("c2"));
        assertThat(new ConsumerId("c2")).isLessThan(new ConsumerId("c9"));
    }
}
