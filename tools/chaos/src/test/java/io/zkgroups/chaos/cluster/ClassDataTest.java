package io.zkgroups.chaos.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClassDataTest {

    @Test
    void withoutArchivesMembersStartAsTheyWould() {
        assertThat(ClassData.none().enabled()).isFalse();
        assertThat(ClassData.none().memberOptions("ours")).isEmpty();
    }

    @Test
    void theTrainingMemberWritesTheArchiveOfItsKindAndEveryMemberOfThatKindMapsIt(@TempDir Path dir) throws Exception {
        ClassData classData = ClassData.in(dir);
        assertThat(classData.trainingOptions("legacy")).contains("-XX:ArchiveClassesAtExit=" + dir.resolve("legacy.jsa"));
        Files.writeString(dir.resolve("legacy.jsa"), "archive");
        assertThat(classData.memberOptions("legacy")).contains("-XX:SharedArchiveFile=" + dir.resolve("legacy.jsa"))
                .doesNotContain("-XX:SharedArchiveFile=" + dir.resolve("ours.jsa"));
    }

    @Test
    void theJvmsWarningsGoToStderrNotToTheLinesTheOrchestratorReads(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ours.jsa"), "archive");
        for (var options : java.util.List.of(ClassData.in(dir).trainingOptions("ours"), ClassData.in(dir).memberOptions("ours"))) {
            assertThat(options).containsSubsequence("-Xlog:disable", "-Xlog:all=warning:stderr");
        }
    }

    @Test
    void aMissingArchiveIsAnErrorThatNamesIt(@TempDir Path dir) {
        assertThatThrownBy(() -> ClassData.in(dir).memberOptions("ours")).isInstanceOf(ChaosException.class)
                .hasMessageContaining(dir.resolve("ours.jsa").toString()).hasMessageContaining("training member");
    }
}
