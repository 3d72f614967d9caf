package io.zkgroups.tool.group;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MemberHostTest {

    @Test
    void theHostIsReadFromAGeneratedConsumerId() {
        assertThat(MemberHost.of("glive", "glive_vm-1795988905284-59cb08f9")).contains("vm");
        assertThat(MemberHost.of("g", "g_web-1.example.com-1795988905284-f1e2d3c4")).contains("web-1.example.com");
    }

    @Test
    void aConfiguredConsumerIdCarriesNoHost() {
        assertThat(MemberHost.of("glive", "glive_c1")).isEmpty();
        assertThat(MemberHost.of("glive", "other_vm-1795988905284-59cb08f9")).isEmpty();
    }
}
