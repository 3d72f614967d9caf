package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.OffsetWrite;
import io.zkgroups.chaos.monitor.History.OwnerChange;
import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.ByteBufferInputStream;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.Txn;
import org.apache.zookeeper.txn.TxnHeader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The group's owner and offset history from the ensemble's transaction logs, read after the run. A transaction is
 * taken when at least two of the three servers logged it (a committed transaction was logged by a quorum; one a
 * killed leader logged alone never happened). Owner znodes are ephemeral: the end of their session deletes them
 * too, at the time of the session's closeSession transaction.
 */
public final class ZkTxnHistory {

    /** The owner and offset changes, in zxid order. */
    public record Result(List<OwnerChange> owners, List<OffsetWrite> offsets, long transactions) {
    }

    private final String ownersPrefix;
    private final String offsetsPrefix;
    private final String group;
    private final ClockMap clock;
    private final Set<Long> injectedSessions;
    private final List<OwnerChange> owners = new ArrayList<>();
    private final List<OffsetWrite> offsets = new ArrayList<>();
    /** Owner znode path -> session that created it (ephemeral). */
    private final Map<String, Long> ownerSessions = new HashMap<>();

    private ZkTxnHistory(String group, String topic, ClockMap clock, Set<Long> injectedSessions) {
        this.group = group;
        this.ownersPrefix = "/consumers/" + group + "/owners/" + topic + "/";
        this.offsetsPrefix = "/consumers/" + group + "/offsets/" + topic + "/";
        this.clock = clock;
        this.injectedSessions = injectedSessions;
    }

    /** Reads {@code <dataDir>/version-2} of each server. */
    public static Result read(List<Path> dataDirs, String group, String topic, ClockMap clock, Set<Long> injectedSessions) {
        Map<Long, Integer> seen = new HashMap<>();
        Map<Long, Logged> txns = new TreeMap<>();
        for (Path dir : dataDirs) {
            Path logs = dir.resolve("version-2");
            if (!Files.isDirectory(logs)) {
                continue;
            }
            try {
                TxnLog.TxnIterator it = new FileTxnLog(logs.toFile()).read(0);
                try {
                    while (it.getHeader() != null) {
                        long zxid = it.getHeader().getZxid();
                        seen.merge(zxid, 1, Integer::sum);
                        txns.putIfAbsent(zxid, new Logged(it.getHeader(), it.getTxn()));
                        if (!it.next()) {
                            break;
                        }
                    }
                } finally {
                    it.close();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the transaction log in " + logs, e);
            }
        }
        ZkTxnHistory history = new ZkTxnHistory(group, topic, clock, injectedSessions);
        int quorum = dataDirs.size() / 2 + 1;
        txns.forEach((zxid, t) -> {
            if (seen.get(zxid) >= quorum) {
                history.apply(t.header(), t.txn());
            }
        });
        return new Result(List.copyOf(history.owners), List.copyOf(history.offsets), txns.size());
    }

    private record Logged(TxnHeader header, Record txn) {
    }

    private void apply(TxnHeader header, Record txn) {
        long nanos = clock.nanosOf(header.getTime());
        long session = header.getClientId();
        switch (header.getType()) {
            case OpCode.create, OpCode.create2 -> created(header, nanos, session, (CreateTxn) txn);
            case OpCode.setData -> set(header, nanos, session, (SetDataTxn) txn);
            case OpCode.delete, OpCode.deleteContainer -> deleted(header, nanos, session, ((DeleteTxn) txn).getPath());
            case OpCode.multi -> {
                for (Txn sub : ((MultiTxn) txn).getTxns()) {
                    applySub(header, nanos, session, sub);
                }
            }
            case OpCode.closeSession -> sessionClosed(header, nanos, session);
            default -> {
                // sessions opening, checks, errors: nothing of the group's state
            }
        }
    }

    private void applySub(TxnHeader header, long nanos, long session, Txn sub) {
        try {
            switch (sub.getType()) {
                case OpCode.create, OpCode.create2 -> created(header, nanos, session, decode(sub, new CreateTxn()));
                case OpCode.setData -> set(header, nanos, session, decode(sub, new SetDataTxn()));
                case OpCode.delete -> deleted(header, nanos, session, decode(sub, new DeleteTxn()).getPath());
                default -> {
                    // check, error (a failed multi changes nothing)
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode a multi() part of zxid 0x" + Long.toHexString(header.getZxid()), e);
        }
    }

    private static <T extends Record> T decode(Txn sub, T record) throws IOException {
        ByteBufferInputStream.byteBuffer2Record(ByteBuffer.wrap(sub.getData()), record);
        return record;
    }

    private void created(TxnHeader header, long nanos, long session, CreateTxn create) {
        String path = create.getPath();
        if (path.startsWith(ownersPrefix)) {
            if (create.getEphemeral()) {
                ownerSessions.put(path, session);
            }
            owners.add(new OwnerChange(nanos, header.getZxid(), partition(path, ownersPrefix), process(create.getData()),
                    session, OwnerChange.Cause.CREATE));
        } else if (path.startsWith(offsetsPrefix)) {
            offset(header, nanos, session, path, create.getData());
        }
    }

    private void set(TxnHeader header, long nanos, long session, SetDataTxn set) {
        String path = set.getPath();
        if (path.startsWith(ownersPrefix)) {
            // the run's garbage does not change who owns the partition: the ephemeral znode stays its creator's
            if (!injectedSessions.contains(session)) {
                owners.add(new OwnerChange(nanos, header.getZxid(), partition(path, ownersPrefix), process(set.getData()),
                        session, OwnerChange.Cause.SET));
            }
        } else if (path.startsWith(offsetsPrefix)) {
            offset(header, nanos, session, path, set.getData());
        }
    }

    private void deleted(TxnHeader header, long nanos, long session, String path) {
        if (path.startsWith(ownersPrefix)) {
            ownerSessions.remove(path);
            owners.add(new OwnerChange(nanos, header.getZxid(), partition(path, ownersPrefix), null, session,
                    OwnerChange.Cause.DELETE));
        }
    }

    private void sessionClosed(TxnHeader header, long nanos, long session) {
        ownerSessions.entrySet().removeIf(e -> {
            if (e.getValue() == session) {
                owners.add(new OwnerChange(nanos, header.getZxid(), partition(e.getKey(), ownersPrefix), null, session,
                        OwnerChange.Cause.SESSION_END));
                return true;
            }
            return false;
        });
    }

    private void offset(TxnHeader header, long nanos, long session, String path, byte[] data) {
        Long value;
        try {
            value = Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            value = null;
        }
        offsets.add(new OffsetWrite(nanos, header.getZxid(), partition(path, offsetsPrefix), value, session,
                injectedSessions.contains(session)));
    }

    private static int partition(String path, String prefix) {
        return Integer.parseInt(path.substring(prefix.length()));
    }

    /** Thread id {@code <group>_<consumer id>-<n>} -> consumer id (the process name); "?" if it is not one. */
    private String process(byte[] data) {
        String thread = new String(data, StandardCharsets.UTF_8);
        int dash = thread.lastIndexOf('-');
        if (!thread.startsWith(group + "_") || dash <= group.length() + 1) {
            return "?";
        }
        return thread.substring(group.length() + 1, dash);
    }
}
