package io.zkgroups.tool.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.ZkGroups;

import java.util.List;
import java.util.stream.Collectors;

/** Refuses to change a group that has live members, naming them. */
public final class ActiveGuard {

    private ActiveGuard() {
    }

    /** The live members of {@code group} (children of {@code /consumers/G/ids}). */
    public static List<ConsumerId> members(ZkGroups zk, String group) {
        return zk.registry().members().ids(group, null);
    }

    /** @throws CliException {@link ExitCode#GROUP_ACTIVE} if {@code group} has registered members */
    public static void requireInactive(ZkGroups zk, String group, String action) {
        List<ConsumerId> members = members(zk, group);
        if (!members.isEmpty()) {
            throw new CliException(ExitCode.GROUP_ACTIVE, "refusing to " + action + ": group " + group + " is active, "
                    + members.size() + " member" + (members.size() == 1 ? "" : "s") + " registered: "
                    + describe(group, members) + ". Stop them first (0.8 members overwrite offsets at their next commit).");
        }
    }

    static String describe(String group, List<ConsumerId> members) {
        return members.stream().limit(10)
                .map(m -> m.value() + MemberHost.of(group, m.value()).map(h -> " (host " + h + ")").orElse(""))
                .collect(Collectors.joining(", ")) + (members.size() > 10 ? " and " + (members.size() - 10) + " more" : "");
    }
}
