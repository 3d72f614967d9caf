package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;

import java.util.Objects;

/** A registered group member. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class Member {
    private final ConsumerId id;
    private final MemberRegistration registration;
    private final long czxid;
    private final long ephemeralOwner;

    /**
     * Creates it from its parts.
     *
     * @param id             its consumer id (the znode name)
     * @param registration   its decoded registration
     * @param czxid          the zxid that created its znode: orders members by registration time
     * @param ephemeralOwner the session that holds its znode
     */
    public Member(ConsumerId id, MemberRegistration registration, long czxid, long ephemeralOwner) {
        this.id = id;
        this.registration = registration;
        this.czxid = czxid;
        this.ephemeralOwner = ephemeralOwner;
    }

    public ConsumerId id() {
        return id;
    }

    public MemberRegistration registration() {
        return registration;
    }

    public long czxid() {
        return czxid;
    }

    public long ephemeralOwner() {
        return ephemeralOwner;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Member)) {
            return false;
        }
        Member that = (Member) o;
        return Objects.equals(id, that.id)
                && Objects.equals(registration, that.registration)
                && czxid == that.czxid
                && ephemeralOwner == that.ephemeralOwner;
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(id);
        h = 31 * h + Objects.hashCode(registration);
        h = 31 * h + Long.hashCode(czxid);
        h = 31 * h + Long.hashCode(ephemeralOwner);
        return h;
    }

    @Override
    public String toString() {
        return "Member[id=" + id + ", registration=" + registration + ", czxid=" + czxid + ", ephemeralOwner=" + ephemeralOwner + "]";
    }
}
