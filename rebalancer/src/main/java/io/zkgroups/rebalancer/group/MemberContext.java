package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.ConsumerId;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.util.Objects;

/**
 * What every part of one {@link ZkGroupMember} shares: who it is (its consumer id and group), its config, the clock it
 * reads, and its log. The log is one logger, {@code ZkGroupMember}'s, so that one logger level follows a member
 * (docs/monitoring.md), and each of its lines begins with {@code [consumer id]}, as kafka-clients' {@link LogContext}
 * prefixes them. Immutable.
 */
final class MemberContext {

    private final GroupMemberConfig config;
    private final Time time;
    private final Logger log;

    MemberContext(GroupMemberConfig config, Time time) {
        this.config = Objects.requireNonNull(config, "config cannot be null");
        this.time = Objects.requireNonNull(time, "time cannot be null");
        this.log = new LogContext("[" + config.consumerId() + "] ").logger(ZkGroupMember.class);
    }

    ConsumerId me() {
        return config.consumerId();
    }

    String group() {
        return config.group();
    }

    GroupMemberConfig config() {
        return config;
    }

    Time time() {
        return time;
    }

    /** The member's log: lines begin with its consumer id. */
    Logger log() {
        return log;
    }
}
