package io.zkgroups.registry.store;

import java.util.Objects;

/**
 * What one child of {@code /consumers/G/ids} was read as by a {@link MemberList}: a member or an unreadable
 * registration.
 */
final class MemberEntry {
    private final Member member;
    private final Unreadable unreadable;

    MemberEntry(Member member, Unreadable unreadable) {
        this.member = member;
        this.unreadable = unreadable;
    }

    Member member() {
        return member;
    }

    Unreadable unreadable() {
        return unreadable;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof MemberEntry)) {
            return false;
        }
        MemberEntry that = (MemberEntry) o;
        return Objects.equals(member, that.member)
                && Objects.equals(unreadable, that.unreadable);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(member);
        h = 31 * h + Objects.hashCode(unreadable);
        return h;
    }

    @Override
    public String toString() {
        return "MemberEntry[member=" + member + ", unreadable=" + unreadable + "]";
    }
}
