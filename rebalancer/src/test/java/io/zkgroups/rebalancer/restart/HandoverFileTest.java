package io.zkgroups.rebalancer.restart;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HandoverFileTest {

    @TempDir
    Path dir;

    static HandoverTicket ticket() {
        ConsumerId id = new ConsumerId("billing_host-1700000000000-1a2b3c4d");
        TreeMap<TopicAndPartition, ThreadId> owned = new TreeMap<>(Map.of(
                new TopicAndPartition("payments", 0), new ThreadId(id, 0),
                new TopicAndPartition("payments", 7), new ThreadId(id, 1),
                new TopicAndPartition("a.b_c-d", 3), new ThreadId(id, 0)));
        return new HandoverTicket(new SessionCredentials(0x1000a2b3c4d0001L, new byte[]{1, 2, 3, -4, 0, 127}),
                "billing", id, "{\"version\":1,\"subscription\":{\"payments\":2}}", owned, Instant.ofEpochMilli(1_700_000_012_345L));
    }

    @Test
    void aTicketWrittenIsTakenOnceWithEverythingItHeld() {
        HandoverFile file = new HandoverFile(dir.resolve("member.handover"));
        file.write(ticket());

        assertThat(file.take()).contains(ticket());
        assertThat(file.take()).as("a ticket is used at most once").isEmpty();
        assertThat(dir.resolve("member.handover")).doesNotExist();
    }

    @Test
    void aNewTicketReplacesTheOldOneAndLeavesNoTemporaryFile() throws Exception {
        HandoverFile file = new HandoverFile(dir.resolve("member.handover"));
        file.write(ticket());
        HandoverTicket newer = new HandoverTicket(new SessionCredentials(42, new byte[]{9}), "billing",
                ticket().consumerId(), "{}", new TreeMap<>(), Instant.ofEpochMilli(1_700_000_099_000L));
        file.write(newer);

        assertThat(file.take()).contains(newer);
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("member.handover.lock");
        }
    }

    @Test
    void theTicketIsReadableByItsOwnerOnly() throws Exception {
        Path path = dir.resolve("member.handover");
        new HandoverFile(path).write(ticket());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-------");
    }

    @Test
    void aFileThatIsNotATicketIsReportedByNameAndDeleted() throws Exception {
        Path path = dir.resolve("member.handover");
        Files.writeString(path, "session=0x12\ngroup=billing\n");

        assertThatThrownBy(() -> new HandoverFile(path).take())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(path.toString()).hasMessageContaining("password");
        assertThat(path).doesNotExist();
    }

    @Test
    void theTicketNeverShowsThePasswordInItsDescription() {
        assertThat(ticket().toString()).contains("0x1000a2b3c4d0001").doesNotContain("AQID");
    }
}
