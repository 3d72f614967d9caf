package io.zkgroups.registry.server;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code srvr} answers add up to; a silent server makes the finding provisional only where asking again can help. */
class ServerProbeTest {

    private static final ServerProbe.SrvrAnswer V39 = ServerProbe.SrvrAnswer.of(
            "Zookeeper version: 3.9.5-7246445ec281f3dbf53dc54e970c914f39713903, built on 2025-04-02\nLatency min/avg/max: 0/0.1/3\n");
    private static final ServerProbe.SrvrAnswer V35 = ServerProbe.SrvrAnswer.of("Zookeeper version: 3.5.10-c9c0f3, built on 2022\n");
    private static final ServerProbe.SrvrAnswer REFUSED = ServerProbe.SrvrAnswer.of(
            "srvr is not executed because it is not in the whitelist.\n");
    private static final ServerProbe.SrvrAnswer SILENT = ServerProbe.SrvrAnswer.silence();

    private static ServerProbe.Finding finding(ServerProbe.SrvrAnswer... answers) {
        Map<InetSocketAddress, ServerProbe.SrvrAnswer> byServer = new LinkedHashMap<>();
        for (int i = 0; i < answers.length; i++) {
            byServer.put(InetSocketAddress.createUnresolved("zk" + i, 2181), answers[i]);
        }
        return ServerProbe.finding(byServer);
    }

    @Test
    void everyServerOnThreeNineIsThreeSixOrLaterForGood() {
        ServerProbe.Finding finding = finding(V39, V39, V39);

        assertThat(finding.generation()).isEqualTo(ServerGeneration.V3_6_OR_LATER);
        assertThat(finding.provisional()).isFalse();
    }

    @Test
    void theOldestServerCounts() {
        assertThat(finding(V39, V35, V39).generation()).isEqualTo(ServerGeneration.V3_5);
        assertThat(finding(V39, V35, V39).provisional()).isFalse();
    }

    @Test
    void aSilentServerCountsAsThreeFiveUntilAskedAgain() {
        ServerProbe.Finding finding = finding(V39, SILENT);

        assertThat(finding.generation()).isEqualTo(ServerGeneration.V3_5);
        assertThat(finding.provisional()).isTrue();
        assertThat(finding.evidence()).contains("no srvr answer from zk1:2181").contains("counted as 3.5");
        assertThat(finding(SILENT, SILENT).provisional()).isTrue();
    }

    @Test
    void aRefusalOrAnOlderAnswerIsNotAskedAgain() {
        assertThat(finding(V39, REFUSED).generation()).isEqualTo(ServerGeneration.V3_5);
        assertThat(finding(V39, REFUSED).provisional()).as("srvr not in the whitelist: it will not be later").isFalse();
        assertThat(finding(V35, SILENT).provisional()).as("3.5 already: no answer can raise it").isFalse();
        assertThat(finding(REFUSED, SILENT).provisional()).isFalse();
    }
}
