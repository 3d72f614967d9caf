package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.assign.RoundRobinAssignor;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.Znodes;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * How a {@link ZkGroupMember} gets into its group: the check that it may join, the registration it writes, and what it
 * keeps of a registration handed over with its session. It writes and reads znodes only; the member decides when,
 * and what the session then owns.
 */
final class MemberRegistrar {

    private final ZkRegistry registry;
    private final GroupMemberConfig config;
    private final MemberContext member;
    private final ConsumerId me;
    private final String group;
    private final PartitionAssignor assignor;
    private final TopicMetadata topicMetadata;
    private final Supplier<Duration> staleRegistrationWait;

    /** @param staleRegistrationWait how long to wait for a registration of a previous session of ours to go */
    MemberRegistrar(MemberContext member, ZkRegistry registry, PartitionAssignor assignor,
                    TopicMetadata topicMetadata, Supplier<Duration> staleRegistrationWait) {
        this.registry = registry;
        this.member = member;
        this.config = member.config();
        this.me = member.me();
        this.group = member.group();
        this.assignor = assignor;
        this.topicMetadata = topicMetadata;
        this.staleRegistrationWait = staleRegistrationWait;
    }

    /** Writes this member's registration as of now, replacing one of a previous session of ours. */
    void register() {
        MemberRegistration registration = MemberRegistration.of(config.subscription(), member.time().milliseconds())
                .withCapabilities(config.capabilities());
        registry.members().register(group, me, registration, staleRegistrationWait.get());
    }

    /**
     * The registration handed over with {@code handedOver}'s session, if it is still that session's: kept (rewritten
     * only if the subscription changed, and the rebalance that follows handles the change). Returns the partitions
     * whose owner znodes are still the session's; empty if the registration is not the session's any more.
     */
    Optional<SortedMap<TopicAndPartition, ThreadId>> keep(SessionOwnership handedOver) {
        long session = handedOver.session();
        Optional<Znodes.Data> node = registry.znodes().read(registry.layout().member(group, me));
        if (!node.isPresent() || node.get().stat().getEphemeralOwner() != session) {
            member.log().warn("the registration handed over with session 0x{} is gone: joining anew", Long.toHexString(session));
            return Optional.empty();
        }
        MemberRegistration current;
        try {
            current = MemberRegistrationCodec.decode(node.get().bytes());
        } catch (DecodeException e) {
            current = null;
        }
        if (current == null || !current.subscription().equals(config.subscription())
                || !current.capabilities().equals(config.capabilities())) {
            member.log().info("subscription differs from the registration handed over: updating it");
            register();
        }
        return Optional.of(handedOver.stillHeld(registry.owners().owners(group, handedOver.owned().keySet(), null)));
    }

    /** Refuses to join a full group, or one whose round-robin assignment this subscription would break. */
    void checkCanJoin() {
        if (config.maxGroupSize() == 0 && !(assignor instanceof RoundRobinAssignor)) {
            return; // nothing to check, so no reason to read every registration before joining
        }
        Listing<Member> members = registry.members().list(group);
        List<Member> others = members.entries().stream().filter(m -> !m.id().equals(me))
                .collect(Collectors.toList());
        int count = others.size() + members.unreadable().size();
        if (config.maxGroupSize() > 0 && count >= config.maxGroupSize()) {
            throw new GroupRefusedException("group " + group + " is full: it has " + count + " members and at most "
                    + config.maxGroupSize() + " are allowed (" + me + " did not join)");
        }
        if (assignor instanceof RoundRobinAssignor) {
            List<String> topics = GroupView.needsTopicList(others, config.subscription()) ? topicMetadata.topics(null)
                    : Collections.<String>emptyList();
            Map<ConsumerId, Member> byId = new TreeMap<>();
            others.forEach(m -> byId.put(m.id(), m));
            try {
                RoundRobinAssignor.validateJoin(me,
                        config.subscription().topicStreams(topics, config.excludeInternalTopics()),
                        GroupView.expand(byId, topics, config.excludeInternalTopics()));
            } catch (AssignmentRefusedException e) {
                throw new GroupRefusedException(me + " cannot join group " + group + " with the roundrobin strategy: "
                        + e.getMessage(), e);
            }
        }
    }
}
