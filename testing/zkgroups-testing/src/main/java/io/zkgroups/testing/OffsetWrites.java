package io.zkgroups.testing;

import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.server.ByteBufferInputStream;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.Txn;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every write of an offset znode, read from a ZooKeeper server's transaction log in the order the server applied them:
 * the evidence that no committed offset ever moved backwards does not depend on a poller being fast enough to see it.
 */
public final class OffsetWrites {

    /** One write: the transaction's zxid, the znode, the offset written. */
    public record Write(long zxid, String path, long offset) {
    }

    private OffsetWrites() {
    }

    /** The writes under {@code prefix} (e.g. {@code /consumers/G/offsets/}) in the log of {@code server}. */
    public static List<Write> of(TestZooKeeper server, String prefix) {
        return read(server.transactionLogDir(), prefix);
    }

    /** The writes under {@code prefix} in the transaction log directory {@code logDir}. */
    public static List<Write> read(File logDir, String prefix) {
        List<Write> writes = new ArrayList<>();
        try (TxnLog log = new FileTxnLog(logDir); TxnLog.TxnIterator it = log.read(0)) {
            while (it.getHeader() != null) {
                collect(it.getHeader().getZxid(), it.getHeader().getType(), it.getTxn(), prefix, writes);
                if (!it.next()) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the transaction log in " + logDir, e);
        }
        return writes;
    }

    /** Each write that set an offset lower than the one before it on the same znode, described. */
    public static List<String> regressions(List<Write> writes) {
        Map<String, Write> last = new HashMap<>();
        List<String> regressions = new ArrayList<>();
        for (Write write : writes) {
            Write before = last.put(write.path(), write);
            if (before != null && write.offset() < before.offset()) {
                regressions.add(write.path() + " went from " + before.offset() + " (zxid 0x" + Long.toHexString(before.zxid())
                        + ") to " + write.offset() + " (zxid 0x" + Long.toHexString(write.zxid()) + ")");
            }
        }
        return regressions;
    }

    private static void collect(long zxid, int type, Record txn, String prefix, List<Write> writes) throws IOException {
        if (type == ZooDefs.OpCode.setData && txn instanceof SetDataTxn set) {
            add(zxid, set.getPath(), set.getData(), prefix, writes);
        } else if ((type == ZooDefs.OpCode.create || type == ZooDefs.OpCode.create2) && txn instanceof CreateTxn create) {
            add(zxid, create.getPath(), create.getData(), prefix, writes);
        } else if (type == ZooDefs.OpCode.multi && txn instanceof MultiTxn multi) {
            for (Txn sub : multi.getTxns()) {
                Record record = switch (sub.getType()) {
                    case ZooDefs.OpCode.setData -> new SetDataTxn();
                    case ZooDefs.OpCode.create, ZooDefs.OpCode.create2 -> new CreateTxn();
                    default -> null;
                };
                if (record != null) {
                    ByteBufferInputStream.byteBuffer2Record(ByteBuffer.wrap(sub.getData()), record);
                    collect(zxid, sub.getType(), record, prefix, writes);
                }
            }
        }
    }

    private static void add(long zxid, String path, byte[] data, String prefix, List<Write> writes) {
        if (!path.startsWith(prefix) || data == null) {
            return;
        }
        try {
            writes.add(new Write(zxid, path, Long.parseLong(new String(data, StandardCharsets.US_ASCII).trim())));
        } catch (NumberFormatException notAnOffset) {
            // garbage written on purpose by a test: not an offset this check can order
        }
    }
}
