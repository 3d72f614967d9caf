package io.zkgroups.chaos.bounce;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class BounceConfigTest {

    private static BounceConfig config(String impl, boolean handover, int prestart, boolean classData) {
        return new BounceConfig(impl, "range", handover, 10, 100, 2_000, 10_000, 250, 250, 10_000, 0, prestart, classData);
    }

    @Test
    void theLabelSaysWhetherTheMembersMappedClassDataArchives() {
        assertThat(config("ours", true, 2, true).label()).isEqualTo("ours-range-handover-prestart2-cds");
        assertThat(config("legacy", false, 0, true).label()).isEqualTo("legacy-cds");
        assertThat(config("legacy", false, 0, false).label()).isEqualTo("legacy");
    }

    @Test
    void aRunIsAnalysedAgainWithItsOwnConfiguration() {
        BounceConfig config = config("mixed", true, 1, true);
        assertThat(BounceConfig.of(config.properties())).isEqualTo(config);
    }

    @Test
    void runsRecordedBeforeClassDataArchivesHadNone() {
        Properties p = config("ours", true, 2, false).properties();
        p.remove("class.data");
        assertThat(BounceConfig.of(p).classData()).isFalse();
        assertThat(BounceConfig.of(p).classData(Path.of("run")).enabled()).isFalse();
    }

    @Test
    void theArchivesLiveInTheRunDirectory() {
        assertThat(config("ours", true, 2, true).classData(Path.of("run")).archive("ours"))
                .isEqualTo(Path.of("run", "class-data", "ours.jsa"));
    }
}
