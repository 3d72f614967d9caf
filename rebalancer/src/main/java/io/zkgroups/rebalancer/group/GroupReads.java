package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.MemberList;
import io.zkgroups.registry.store.Unreadable;
import org.apache.zookeeper.Watcher;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * What the READING phase of a {@link MemberProtocol}'s attempt reads: the member list (or the single leave it acts on
 * without reading, confirmed after the attempt), and the {@link GroupView} built from it, with malformed registrations
 * and unreadable topics reported. Event loop only.
 */
final class GroupReads {

    /** Asks for another attempt within a delay, which reads the group again. */
    interface Again {
        void again(RebalanceCause cause, Duration delay);
    }

    private final MemberContext member;
    private final ZkRegistry registry;
    private final MemberList memberList;
    private final GroupViewReader viewReader;
    private final ViewFreshness freshness;
    private final Watcher membershipWatcher;
    private final RebalanceRecord record;
    private final MemberSession session;
    private final BiConsumer<String, List<Unreadable>> unreadable;
    private final Again again;

    GroupReads(MemberContext member, ZkRegistry registry, MemberList memberList, GroupViewReader viewReader,
               ViewFreshness freshness, Watcher membershipWatcher, RebalanceRecord record, MemberSession session,
               BiConsumer<String, List<Unreadable>> unreadable, Again again) {
        this.member = member;
        this.registry = registry;
        this.memberList = memberList;
        this.viewReader = viewReader;
        this.freshness = freshness;
        this.membershipWatcher = membershipWatcher;
        this.record = record;
        this.session = session;
        this.unreadable = unreadable;
        this.again = again;
    }

    /**
     * The group as {@code attempt} sees it. A single leave is all that happened: it acts on that at once and reads
     * the member list after the attempt ({@link #confirmLeaveOnly}); otherwise it reads the member list now.
     */
    GroupView read(Attempt attempt) {
        attempt.leaveOnly = memberList.afterLeaveHeard().orElse(null);
        MemberList.Read read = attempt.leaveOnly != null ? attempt.leaveOnly : memberList.read(membershipWatcher);
        if (attempt.leaveOnly == null) {
            freshness.read(read.pzxid());
        }
        return viewOf(read.listing());
    }

    /**
     * Before a fresh member registers: its topics' partition counts ({@link GroupViewReader#readTopicsAhead}). Only a
     * head start: should it fail, the read after the registration asks again and reports what fails.
     */
    void readTopicsAhead() {
        try {
            viewReader.readTopicsAhead();
        } catch (RuntimeException e) {
            member.log().debug("the topics could not be read ahead of the registration: {}", e.toString());
        }
    }

    /**
     * After an attempt that acted on a leave without reading the group ({@link MemberList#afterLeaveHeard}): the read
     * it skipped, which arms the listing's watch again, and another attempt if the group was not what it assumed.
     */
    void confirmLeaveOnly(MemberList.Read assumed, Duration afterFailure) {
        try {
            // the same leave's listing event, heard meanwhile, needs no other read: a claim left waiting for the
            // partitions' previous owners may then be sent as soon as they let go
            freshness.readBegins();
            MemberList.Read read = memberList.read(membershipWatcher);
            freshness.read(read.pzxid());
            if (!read.listing().equals(assumed.listing())) {
                again.again(new RebalanceCause.Retry("the group changed beside a member's leave"), Duration.ZERO);
            }
        } catch (RuntimeException e) {
            again.again(new RebalanceCause.Retry("the group could not be read after a leave: " + e.getMessage()),
                    afterFailure);
        }
    }

    private GroupView viewOf(Listing<Member> listing) {
        GroupView view = viewReader.read(listing);
        if (!view.members().containsKey(member.me())) { // every registered member, sorted: no scan of them all
            session.unregistered(); // our registration is gone: register again on the next attempt
            throw new IllegalStateException("own registration " + registry.layout().member(member.group(), member.me())
                    + " disappeared");
        }
        if (!view.malformed().isEmpty() && !view.malformed().equals(record.malformed())) {
            member.log().warn("left out of the assignment, unreadable registrations: {}", view.malformed());
        }
        record.malformed(view.malformed());
        unreadable.accept("topics", Immutable.list(view.unreadableTopics().values()));
        return view;
    }
}
