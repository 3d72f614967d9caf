package io.zkgroups.registry.security;

import io.zkgroups.registry.ZkLayout;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The ACLs of {@code zookeeper.set.acl=true}: a group's znodes ({@code /consumers/<group>} and everything below)
 * are created writable only by the client's authenticated identity and readable by everyone, as Kafka's
 * {@code zookeeper.set.acl} does for a broker's znodes. Every other znode, {@code /consumers} itself included, is
 * created open: {@code /consumers} is shared by every group and every 0.8 consumer, which connect without
 * credentials.
 * <p>
 * Only znodes created through the client get these ACLs; existing ones keep theirs.
 */
public final class GroupAclProvider implements ACLProvider {

    /** Creator (the authenticated identities of the session) may do everything, anyone may read. */
    public static final List<ACL> CREATOR_ALL_WORLD_READ = secureAcl();

    private final String groupsPrefix;

    public GroupAclProvider(ZkLayout layout) {
        this.groupsPrefix = Objects.requireNonNull(layout, "layout cannot be null").consumers() + "/";
    }

    @Override
    public List<ACL> getDefaultAcl() {
        return ZooDefs.Ids.OPEN_ACL_UNSAFE;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        return path != null && path.startsWith(groupsPrefix) ? CREATOR_ALL_WORLD_READ : ZooDefs.Ids.OPEN_ACL_UNSAFE;
    }

    private static List<ACL> secureAcl() {
        List<ACL> acl = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
        acl.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        // not List.copyOf: ZooKeeper checks acl.contains(null), which an immutable List.of/copyOf rejects
        return Collections.unmodifiableList(acl);
    }
}
