package io.zkgroups.tool.cli;

import io.zkgroups.tool.group.GroupDescription;
import io.zkgroups.tool.group.GroupMembersView;
import io.zkgroups.tool.group.GroupStateView;
import io.zkgroups.tool.output.Json;
import io.zkgroups.tool.output.Table;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Prints what {@code groups describe} found, in one of its three views (offsets, members, state), as tables or JSON.
 * One group named once is printed as its own JSON document; several (or {@code --all-groups}) as
 * {@code {"groups": [...], "unknownGroups": [...]}}.
 */
final class DescribePrinter {

    /** {@code --offsets} (the default), {@code --members}, {@code --state}. */
    enum View { OFFSETS, MEMBERS, STATE }

    private final PrintWriter out;
    private final String zookeeper;

    DescribePrinter(PrintWriter out, String zookeeper) {
        this.out = out;
        this.zookeeper = zookeeper;
    }

    void json(View view, List<GroupDescription> found, List<String> unknown, boolean single) {
        Function<GroupDescription, Object> doc = switch (view) {
            case OFFSETS -> d -> d;
            case MEMBERS -> GroupMembersView::of;
            case STATE -> d -> GroupStateView.of(d, zookeeper);
        };
        if (single && found.size() == 1) {
            Json.print(out, doc.apply(found.get(0)));
            return;
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("groups", found.stream().map(doc).toList());
        all.put("unknownGroups", unknown);
        Json.print(out, all);
    }

    void table(View view, List<GroupDescription> found) {
        switch (view) {
            case OFFSETS -> {
                for (int i = 0; i < found.size(); i++) {
                    if (i > 0) {
                        out.println();
                    }
                    offsets(found.get(i));
                }
            }
            case MEMBERS -> members(found);
            case STATE -> state(found);
        }
        out.flush();
    }

    private void offsets(GroupDescription d) {
        out.println("GROUP " + d.group() + "  STATE " + d.state() + "  PHASE " + d.phase() + " (" + d.phaseEvidence()
                + ")  MEMBERS " + d.members().size() + "  STRATEGY " + d.strategy() + " (" + d.strategyReason() + ")");
        out.println();
        Table t = new Table("TOPIC", "PARTITION", "ZK-OFFSET", "KAFKA-OFFSET", "LOG-END", "LAG", "OWNER", "HOST",
                "LAG-TIME", "COMMITTED");
        d.partitions().forEach(p -> t.row(p.topic(), p.partition(), p.zookeeperOffset(), p.kafkaOffset(),
                p.logEndOffset(), p.lag(), p.owner(), p.host(), Seconds.format(p.lagSeconds()),
                Seconds.ago(p.commitAgeSeconds())));
        t.print(out);
        if (!d.membersWithoutPartitions().isEmpty()) {
            out.println();
            out.println("MEMBERS WITHOUT PARTITIONS");
            Table m = new Table("CONSUMER-ID", "HOST", "SUBSCRIPTION", "THREADS");
            d.membersWithoutPartitions().forEach(r -> m.row(r.consumerId(), r.host(), r.subscription(), r.threads()));
            m.print(out);
        }
        if (!d.memberAlarms().isEmpty()) {
            out.println();
            out.println("MEMBER ALARMS (what members report they cannot do now)");
            Table a = new Table("CONSUMER-ID", "WHAT", "REASON");
            d.memberAlarms().forEach(r -> a.row(r.consumerId(), r.path(), r.reason()));
            a.print(out);
        }
    }

    private void members(List<GroupDescription> found) {
        Table t = new Table("GROUP", "CONSUMER-ID", "HOST", "THREADS", "#PARTITIONS", "ASSIGNMENT", "SUBSCRIPTION");
        for (GroupDescription d : found) {
            GroupMembersView view = GroupMembersView.of(d);
            if (view.members().isEmpty()) {
                t.row(d.group(), "(no registered member)", null, 0, 0, null, null);
            }
            view.members().forEach(m -> t.row(d.group(), m.consumerId(), m.host(), m.threads(), m.partitions(),
                    m.assignmentText(), m.subscription()));
        }
        t.print(out);
    }

    private void state(List<GroupDescription> found) {
        Table t = new Table("GROUP", "STATE", "MEMBERS", "STRATEGY", "PHASE", "OWNED", "COORDINATOR");
        for (GroupDescription d : found) {
            GroupStateView s = GroupStateView.of(d, zookeeper);
            t.row(s.group(), s.state(), s.members(), s.strategy(), s.phase(), s.ownedPartitions() + "/" + s.partitions(),
                    s.coordinator());
        }
        t.print(out);
    }
}
