package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.tool.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** {@code zkgroups migrate execute} (ZooKeeper offsets copied to Kafka) on the live group. */
final class MigrateExecute implements Fault {

    @Override
    public String name() {
        return "migrate-execute";
    }

    @Override
    public String description() {
        return "run `zkgroups migrate execute` on the live group (copies its ZooKeeper offsets to Kafka while members "
                + "commit): it must not disturb the members or their ZooKeeper offsets";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(new String[]{"migrate", "execute", "--group", cluster.settings().group(),
                    "--zookeeper", cluster.ensemble().connectString(),
                    "--bootstrap-server", cluster.broker().bootstrapServers()}, o, e);
        }
        String errText = err.toString(StandardCharsets.UTF_8).trim().replace('\n', ' ');
        return "migrate execute exited " + code + (errText.isEmpty() ? "" : " (" + errText + ")");
    }
}
