package io.zkgroups.registry.store;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;

/**
 * A registered group member.
 *
 * @param id             its consumer id (the znode name)
 * @param registration   its decoded registration
 * @param czxid          the zxid that created its znode: orders members by registration time
 * @param ephemeralOwner the session that holds its znode
 */
public record Member(ConsumerId id, MemberRegistration registration, long czxid, long ephemeralOwner) {
}
