package io.zkgroups.tool.cli;

import io.zkgroups.tool.output.Table;
import io.zkgroups.tool.reset.ResetPlan;
import io.zkgroups.tool.reset.ResetRow;

import java.io.PrintWriter;

/** Prints a reset plan as a table. */
final class ResetPlanView {

    private ResetPlanView() {
    }

    static void print(PrintWriter out, ResetPlan plan) {
        out.println("Reset plan for group " + plan.group() + ": " + plan.strategy() + ", phase " + plan.phase().label());
        out.println("Stores: " + plan.storeRule());
        Table t = new Table("TOPIC", "PARTITION", "ZK-OFFSET", "KAFKA-OFFSET", "LOG-START", "LOG-END", "CURRENT", "TARGET",
                "WRITES", "NOTE");
        for (ResetRow r : plan.rows()) {
            String writes = r.writeZk() && r.writeKafka() ? "zookeeper+kafka" : r.writeZk() ? "zookeeper"
                    : r.writeKafka() ? "kafka" : "-";
            t.row(r.partition().topic(), r.partition().partition(), r.zk(), r.kafka(), r.earliest(), r.latest(), r.current(),
                    r.target(), writes, r.note().isEmpty() ? null : r.note());
        }
        t.print(out);
    }
}
