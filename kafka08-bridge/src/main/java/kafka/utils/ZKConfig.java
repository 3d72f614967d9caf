package kafka.utils;

/** The ZooKeeper settings of a consumer config (0.8.2.2 {@code ZKConfig}), with 0.8.2.2's defaults. */
public class ZKConfig {

    private final VerifiableProperties props;

    public ZKConfig(VerifiableProperties props) {
        this.props = props;
    }

    public String zkConnect() {
        return props.getString("zookeeper.connect");
    }

    public int zkSessionTimeoutMs() {
        return props.getInt("zookeeper.session.timeout.ms", 6000);
    }

    public int zkConnectionTimeoutMs() {
        return props.getInt("zookeeper.connection.timeout.ms", zkSessionTimeoutMs());
    }

    public int zkSyncTimeMs() {
        return props.getInt("zookeeper.sync.time.ms", 2000);
    }
}
