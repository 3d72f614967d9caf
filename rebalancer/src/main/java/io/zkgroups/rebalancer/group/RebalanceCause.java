package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;

/** Why a rebalance ran: the change in the group that a member saw. */
public sealed interface RebalanceCause {

    String describe();

    record Started() implements RebalanceCause {
        public String describe() {
            return "member started";
        }
    }

    record MemberJoined(ConsumerId member) implements RebalanceCause {
        public String describe() {
            return "member " + member + " joined";
        }
    }

    record MemberLeft(ConsumerId member) implements RebalanceCause {
        public String describe() {
            return "member " + member + " left";
        }
    }

    record SubscriptionChanged(ConsumerId member) implements RebalanceCause {
        public String describe() {
            return "member " + member + " changed its subscription";
        }
    }

    record PartitionsChanged(String topic, int before, int after) implements RebalanceCause {
        public String describe() {
            return "partitions of " + topic + " changed from " + before + " to " + after;
        }
    }

    record TopicCreated(String topic) implements RebalanceCause {
        public String describe() {
            return "topic " + topic + " created";
        }
    }

    record TopicDeleted(String topic) implements RebalanceCause {
        public String describe() {
            return "topic " + topic + " deleted";
        }
    }

    /** The topic's registration cannot be read: its partitions are assigned to nobody until it is repaired. */
    record TopicUnreadable(String topic) implements RebalanceCause {
        public String describe() {
            return "registration of topic " + topic + " unreadable";
        }
    }

    record SessionExpired(long oldSession, long newSession) implements RebalanceCause {
        public String describe() {
            return "session 0x" + Long.toHexString(oldSession) + " expired, new session 0x" + Long.toHexString(newSession);
        }
    }

    record Reconnected() implements RebalanceCause {
        public String describe() {
            return "reconnected to ZooKeeper";
        }
    }

    record Retry(String reason) implements RebalanceCause {
        public String describe() {
            return "retry after: " + reason;
        }
    }
}
