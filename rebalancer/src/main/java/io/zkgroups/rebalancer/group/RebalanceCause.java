package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;

import java.util.Objects;

/**
 * Why a rebalance ran: the change in the group that a member saw.
 * <p>
 * Implemented only by the value classes nested here: {@link Started}, {@link MemberJoined}, {@link MemberLeft},
 * {@link SubscriptionChanged}, {@link PartitionsChanged}, {@link TopicCreated}, {@link TopicDeleted},
 * {@link TopicUnreadable}, {@link SessionExpired}, {@link Reconnected} and {@link Retry}.
 */
public interface RebalanceCause {

    String describe();

    final class Started implements RebalanceCause {
        public Started() {
        }

        @Override
        public String describe() {
            return "member started";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Started;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        @Override
        public String toString() {
            return "Started[]";
        }
    }

    final class MemberJoined implements RebalanceCause {
        private final ConsumerId member;

        public MemberJoined(ConsumerId member) {
            this.member = member;
        }

        public ConsumerId member() {
            return member;
        }

        @Override
        public String describe() {
            return "member " + member + " joined";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof MemberJoined)) {
                return false;
            }
            MemberJoined that = (MemberJoined) other;
            return Objects.equals(member, that.member);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(member);
        }

        @Override
        public String toString() {
            return "MemberJoined[member=" + member + "]";
        }
    }

    final class MemberLeft implements RebalanceCause {
        private final ConsumerId member;

        public MemberLeft(ConsumerId member) {
            this.member = member;
        }

        public ConsumerId member() {
            return member;
        }

        @Override
        public String describe() {
            return "member " + member + " left";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof MemberLeft)) {
                return false;
            }
            MemberLeft that = (MemberLeft) other;
            return Objects.equals(member, that.member);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(member);
        }

        @Override
        public String toString() {
            return "MemberLeft[member=" + member + "]";
        }
    }

    final class SubscriptionChanged implements RebalanceCause {
        private final ConsumerId member;

        public SubscriptionChanged(ConsumerId member) {
            this.member = member;
        }

        public ConsumerId member() {
            return member;
        }

        @Override
        public String describe() {
            return "member " + member + " changed its subscription";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof SubscriptionChanged)) {
                return false;
            }
            SubscriptionChanged that = (SubscriptionChanged) other;
            return Objects.equals(member, that.member);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(member);
        }

        @Override
        public String toString() {
            return "SubscriptionChanged[member=" + member + "]";
        }
    }

    final class PartitionsChanged implements RebalanceCause {
        private final String topic;
        private final int before;
        private final int after;

        public PartitionsChanged(String topic, int before, int after) {
            this.topic = topic;
            this.before = before;
            this.after = after;
        }

        public String topic() {
            return topic;
        }

        public int before() {
            return before;
        }

        public int after() {
            return after;
        }

        @Override
        public String describe() {
            return "partitions of " + topic + " changed from " + before + " to " + after;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof PartitionsChanged)) {
                return false;
            }
            PartitionsChanged that = (PartitionsChanged) other;
            return Objects.equals(topic, that.topic) && before == that.before && after == that.after;
        }

        @Override
        public int hashCode() {
            return Objects.hash(topic, before, after);
        }

        @Override
        public String toString() {
            return "PartitionsChanged[topic=" + topic + ", before=" + before + ", after=" + after + "]";
        }
    }

    final class TopicCreated implements RebalanceCause {
        private final String topic;

        public TopicCreated(String topic) {
            this.topic = topic;
        }

        public String topic() {
            return topic;
        }

        @Override
        public String describe() {
            return "topic " + topic + " created";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof TopicCreated)) {
                return false;
            }
            TopicCreated that = (TopicCreated) other;
            return Objects.equals(topic, that.topic);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(topic);
        }

        @Override
        public String toString() {
            return "TopicCreated[topic=" + topic + "]";
        }
    }

    final class TopicDeleted implements RebalanceCause {
        private final String topic;

        public TopicDeleted(String topic) {
            this.topic = topic;
        }

        public String topic() {
            return topic;
        }

        @Override
        public String describe() {
            return "topic " + topic + " deleted";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof TopicDeleted)) {
                return false;
            }
            TopicDeleted that = (TopicDeleted) other;
            return Objects.equals(topic, that.topic);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(topic);
        }

        @Override
        public String toString() {
            return "TopicDeleted[topic=" + topic + "]";
        }
    }

    /** The topic's registration cannot be read: its partitions are assigned to nobody until it is repaired. */
    final class TopicUnreadable implements RebalanceCause {
        private final String topic;

        public TopicUnreadable(String topic) {
            this.topic = topic;
        }

        public String topic() {
            return topic;
        }

        @Override
        public String describe() {
            return "registration of topic " + topic + " unreadable";
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof TopicUnreadable)) {
                return false;
            }
            TopicUnreadable that = (TopicUnreadable) other;
            return Objects.equals(topic, that.topic);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(topic);
        }

        @Override
        public String toString() {
            return "TopicUnreadable[topic=" + topic + "]";
        }
    }

    final class SessionExpired implements RebalanceCause {
        private final long oldSession;
        private final long newSession;

        public SessionExpired(long oldSession, long newSession) {
            this.oldSession = oldSession;
            this.newSession = newSession;
        }

        public long oldSession() {
            return oldSession;
        }

        public long newSession() {
            return newSession;
        }

        @Override
        public String describe() {
            return "session 0x" + Long.toHexString(oldSession) + " expired, new session 0x"
                    + Long.toHexString(newSession);
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof SessionExpired)) {
                return false;
            }
            SessionExpired that = (SessionExpired) other;
            return oldSession == that.oldSession && newSession == that.newSession;
        }

        @Override
        public int hashCode() {
            return Objects.hash(oldSession, newSession);
        }

        @Override
        public String toString() {
            return "SessionExpired[oldSession=" + oldSession + ", newSession=" + newSession + "]";
        }
    }

    final class Reconnected implements RebalanceCause {
        public Reconnected() {
        }

        @Override
        public String describe() {
            return "reconnected to ZooKeeper";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Reconnected;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        @Override
        public String toString() {
            return "Reconnected[]";
        }
    }

    final class Retry implements RebalanceCause {
        private final String reason;

        public Retry(String reason) {
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }

        @Override
        public String describe() {
            return "retry after: " + reason;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Retry)) {
                return false;
            }
            Retry that = (Retry) other;
            return Objects.equals(reason, that.reason);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(reason);
        }

        @Override
        public String toString() {
            return "Retry[reason=" + reason + "]";
        }
    }
}
