package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real {@link TestZooKeeper} per test class, so the classes do not each repeat a static field with a
 * {@code @BeforeAll} start and an {@code @AfterAll} close. It starts before all tests of the class (before the
 * class's own {@code @BeforeAll} methods) and closes after all of them (after its {@code @AfterAll} methods),
 * also when a test or a {@code @BeforeAll} fails. Register it on a <em>static</em> field:
 * <pre>{@code
 * @RegisterExtension
 * static final ZooKeeperExtension zk = new ZooKeeperExtension();
 * }</pre>
 * Not for tests that stop, restart or need a fresh server per test: they use {@link TestZooKeeper} directly.
 */
public final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {

    private TestZooKeeper server;
    /** The class that started the server: a {@code @Nested} class inherits the extension and shares it. */
    private String owner;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server == null) {
            server = TestZooKeeper.start();
            owner = context.getUniqueId();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null && context.getUniqueId().equals(owner)) {
            try {
                server.close();
            } finally {
                server = null;
            }
        }
    }

    /** The running server; only between the start and the end of the test class. */
    public TestZooKeeper server() {
        if (server == null) {
            throw new IllegalStateException("no ZooKeeper running: register the extension on a static field");
        }
        return server;
    }

    /** {@link TestZooKeeper#connectString()}. */
    public String connectString() {
        return server().connectString();
    }

    /** {@link TestZooKeeper#newClient()}: a started client with a 10 s session, closed with the server. */
    public CuratorFramework newClient() {
        return server().newClient();
    }

    /** {@link TestZooKeeper#newClient(int)}. */
    public CuratorFramework newClient(int sessionTimeoutMs) {
        return server().newClient(sessionTimeoutMs);
    }
}
