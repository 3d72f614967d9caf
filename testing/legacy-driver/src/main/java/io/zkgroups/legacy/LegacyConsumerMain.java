package io.zkgroups.legacy;

import kafka.consumer.Blacklist;
import kafka.consumer.ConsumerConfig;
import kafka.consumer.ConsumerIterator;
import kafka.consumer.KafkaStream;
import kafka.consumer.TopicFilter;
import kafka.consumer.Whitelist;
import kafka.javaapi.consumer.ZookeeperConsumerConnector;
import kafka.message.MessageAndMetadata;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the real Kafka 0.8.2.2 high-level consumer ({@code kafka.javaapi.consumer.ZookeeperConsumerConnector})
 * as a child process that a test drives through stdin and observes through stdout.
 *
 * <h2>Command line</h2>
 * <pre>
 * LegacyConsumerMain CONSUMER_PROPERTIES_FILE SUBSCRIPTION [--no-fetcher] [--max-messages N] [--pause-ms N]
 *
 * SUBSCRIPTION is one of
 *   --topic T=N [--topic T2=M ...]       static: createMessageStreams({T:N, T2:M}) in this order
 *   --whitelist REGEX [--streams N]      createMessageStreamsByFilter(new Whitelist(REGEX), N), N defaults to 1
 *   --blacklist REGEX [--streams N]      createMessageStreamsByFilter(new Blacklist(REGEX), N)
 * --no-fetcher      use the testing constructor new ZookeeperConsumerConnector(config, false): the full
 *                   ZooKeeper protocol (register, rebalance, claim owners), but no broker connection
 * --max-messages N  deliver at most N messages in total (over all streams); afterwards no stream calls
 *                   next() any more, so the consumed offsets (and what a commit writes) stop exactly there
 * --pause-ms N      each stream spends N ms on every message after printing it (a slow application)
 * </pre>
 * The properties file holds any 0.8 consumer property ({@code zookeeper.connect}, {@code group.id},
 * {@code consumer.id}, {@code partition.assignment.strategy}, {@code offsets.storage},
 * {@code dual.commit.enabled}, {@code auto.commit.enable}, {@code auto.offset.reset}, ...).
 *
 * <h2>Protocol on stdout</h2>
 * One event per line, flushed at once; fields separated by single spaces. Logs go to stderr (log4j, WARN).
 * <pre>
 * READY &lt;consumerIdString&gt;           streams created (the first rebalance is done), e.g. READY g_c1
 * MSG &lt;topic&gt; &lt;partition&gt; &lt;offset&gt; &lt;key&gt; &lt;value&gt;
 *                                     one consumed message; key is the literal null when the message
 *                                     has none; value is the rest of the line (may contain spaces)
 * LIMIT &lt;n&gt;                           the --max-messages limit n has been reached: after the n-th MSG line
 * COMMIT-WRITING                      during a "commit": commitOffsets() is writing an offset to ZooKeeper, so
 *                                     it has chosen what it commits (printed only if the write is seen; a test
 *                                     that holds the consumer's ZooKeeper connection waits for it)
 * COMMITTED                           the answer to one "commit" command: commitOffsets() returned
 * ERROR &lt;text&gt;                        a bad command (the driver goes on) or a fatal error (exit code 2)
 * CLOSED                              the connector has been shut down; the last line, printed once
 * </pre>
 * Keys and values are decoded as UTF-8; a backslash, CR and LF in them are written as {@code \\},
 * {@code \r}, {@code \n}, and in keys a space as {@code \s}, so that every event stays one line.
 *
 * <h2>Commands on stdin</h2>
 * One per line: {@code commit} (commitOffsets(), then COMMITTED) and {@code shutdown} (connector.shutdown(),
 * which itself commits first if {@code auto.commit.enable} is true, then CLOSED and exit code 0). End of
 * stdin (the parent went away) is treated as {@code shutdown}. SIGTERM runs the same shutdown from a shutdown
 * hook; SIGKILL leaves the consumer's ephemeral znodes until its ZooKeeper session expires.
 */
public final class LegacyConsumerMain {

    private static final String USAGE = "usage: LegacyConsumerMain CONSUMER_PROPERTIES "
            + "(--topic T=N ... | --whitelist REGEX | --blacklist REGEX) [--streams N] [--no-fetcher] "
            + "[--max-messages N] [--pause-ms N]";

    private final PrintStream out;
    private final Options options;
    private final AtomicLong remaining;
    /** MSG lines printed, over all streams. */
    private final AtomicLong printed = new AtomicLong();
    /** How long close() waits for the streams to finish their current message (ConsumerGroupExample: 5 s). */
    private static final Duration STREAM_DRAIN = Duration.ofSeconds(5);

    private final List<Thread> streamThreads = new CopyOnWriteArrayList<>();
    private ZookeeperConsumerConnector connector;
    private volatile boolean closed;

    private LegacyConsumerMain(PrintStream out, Options options) {
        this.out = out;
        this.options = options;
        this.remaining = new AtomicLong(options.maxMessages);
    }

    public static void main(String[] args) throws Exception {
        // Our own stream on fd 1: autoflush, UTF-8, and nobody else's println can interleave mid-line.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            out.println("ERROR " + oneLine(e.getMessage()));
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        LegacyConsumerMain driver = new LegacyConsumerMain(out, options);
        Runtime.getRuntime().addShutdownHook(new Thread(driver::close, "legacy-driver-shutdown-hook"));
        try {
            driver.start();
        } catch (Throwable e) {
            e.printStackTrace();
            driver.fatal(e);
            return;
        }
        try {
            driver.serveCommands(stdinClosedAtExit());
        } catch (AsynchronousCloseException e) {
            return; // SIGTERM: the shutdown hooks close the connector and stdin, and the JVM exits
        }
        driver.close();
        System.exit(0);
    }

    /**
     * Standard input through a channel that a shutdown hook closes: HotSpot's exit waits up to 300 ms for a thread
     * blocked in a native read of {@code System.in}, which a 0.8.2.2 application would not have. The same as
     * registry's {@code StandardInput}, which this class path (0.8.2.2 only) cannot take.
     */
    private static InputStream stdinClosedAtExit() {
        FileChannel channel = new FileInputStream(FileDescriptor.in).getChannel();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                channel.close();
            } catch (IOException e) {
                // exiting anyway
            }
        }, "close-stdin"));
        return Channels.newInputStream(channel);
    }

    private void start() throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(options.propertiesFile)) {
            props.load(in);
        }
        ConsumerConfig config = new ConsumerConfig(props);
        ZookeeperConsumerConnector created = new ZookeeperConsumerConnector(config, !options.noFetcher);
        synchronized (this) {
            connector = created;
            if (closed) {
                // SIGTERM arrived while connecting: the hook found nothing to shut down.
                created.shutdown();
                return;
            }
        }
        List<KafkaStream<byte[], byte[]>> streams = new ArrayList<>();
        if (options.filter != null) {
            streams.addAll(created.createMessageStreamsByFilter(options.filter, options.streams));
        } else {
            for (List<KafkaStream<byte[], byte[]>> perTopic : created.createMessageStreams(options.topics).values()) {
                streams.addAll(perTopic);
            }
        }
        int i = 0;
        for (KafkaStream<byte[], byte[]> stream : streams) {
            Thread t = new Thread(() -> consume(stream), "legacy-driver-stream-" + i++);
            t.setDaemon(true);
            streamThreads.add(t);
            t.start();
        }
        if (!closed) {
            emit("READY " + consumerIdString(created, config));
        }
    }

    private void consume(KafkaStream<byte[], byte[]> stream) {
        try {
            ConsumerIterator<byte[], byte[]> it = stream.iterator();
            // hasNext() blocks until a message or the shutdown sentinel; only next() moves the consumed
            // offset, so a stream that has no permit left never calls it.
            while (it.hasNext()) {
                long left = remaining.getAndDecrement();
                if (left <= 0) {
                    return;
                }
                MessageAndMetadata<byte[], byte[]> m = it.next();
                emit("MSG " + m.topic() + " " + m.partition() + " " + m.offset() + " "
                        + (m.key() == null ? "null" : escape(m.key(), true)) + " "
                        + (m.message() == null ? "null" : escape(m.message(), false)));
                if (printed.incrementAndGet() == options.maxMessages) {
                    // after the last MSG line, whichever stream printed it: another may have taken the last permit
                    emit("LIMIT " + options.maxMessages);
                }
                if (options.pauseMs > 0) {
                    Thread.sleep(options.pauseMs); // the application's processing time
                }
            }
        } catch (Throwable e) {
            // Shutdown races (interrupted fetcher, cleared chunk) end up here; anything else is worth seeing.
            System.err.println("stream " + Thread.currentThread().getName() + " ended: " + e);
        }
    }

    private void serveCommands(InputStream stdin) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String command = line.trim();
            switch (command) {
                case "":
                    break;
                case "commit":
                    try {
                        try (CommitWriteWatch watch = CommitWriteWatch.ofCurrentThread(this::emit)) {
                            connector.commitOffsets();
                        }
                        emit("COMMITTED");
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                        emit("ERROR commit failed: " + oneLine(String.valueOf(e)));
                    }
                    break;
                case "shutdown":
                    return;
                default:
                    emit("ERROR unknown command: " + oneLine(command));
                    break;
            }
        }
    }

    /** Shuts the connector down once (main thread or shutdown hook, whichever comes first) and prints CLOSED. */
    private synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (connector != null) {
            connector.shutdown();
            awaitStreams();
        }
        emit("CLOSED");
    }

    /**
     * Lets each stream finish the message it holds, as ConsumerGroupExample's executor.awaitTermination does:
     * 0.8.2.2's next() moves the consumed offset before it returns, so the shutdown's commit already covers that
     * message; exiting before the stream prints it would lose it.
     */
    private void awaitStreams() {
        long deadline = System.nanoTime() + STREAM_DRAIN.toNanos();
        for (Thread stream : streamThreads) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    stream.join(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (stream.isAlive()) {
                System.err.println("stream " + stream.getName() + " still busy " + STREAM_DRAIN.toMillis()
                        + " ms after shutdown; exiting without it");
            }
        }
    }

    private void fatal(Throwable e) {
        emit("ERROR " + e.getClass().getName() + ": " + oneLine(String.valueOf(e.getMessage())));
        close();
        System.exit(2);
    }

    private void emit(String line) {
        out.println(line);
    }

    /**
     * The connector's consumerIdString. The Java API keeps the Scala connector in a private field; if that
     * ever fails, the id is derived from the config as 0.8.2.2 does when {@code consumer.id} is set.
     */
    private static String consumerIdString(ZookeeperConsumerConnector connector, ConsumerConfig config) {
        try {
            Field f = ZookeeperConsumerConnector.class.getDeclaredField("underlying");
            f.setAccessible(true);
            return ((kafka.consumer.ZookeeperConsumerConnector) f.get(connector)).consumerIdString();
        } catch (ReflectiveOperationException | RuntimeException e) {
            String consumerId = config.consumerId().isDefined() ? config.consumerId().get() : "unknown";
            return config.groupId() + "_" + consumerId;
        }
    }

    static String escape(byte[] bytes, boolean isKey) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case ' ':
                    b.append(isKey ? "\\s" : " ");
                    break;
                default:
                    b.append(c);
                    break;
            }
        }
        return b.toString();
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    /** Parsed command line. */
    private static final class Options {
        Path propertiesFile;
        final Map<String, Integer> topics = new LinkedHashMap<>();
        TopicFilter filter;
        int streams = 1;
        boolean noFetcher;
        long maxMessages = Long.MAX_VALUE;
        long pauseMs;

        static Options parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("missing the consumer properties file");
            }
            Options o = new Options();
            o.propertiesFile = Paths.get(args[0]);
            if (!Files.isReadable(o.propertiesFile)) {
                throw new IllegalArgumentException("cannot read consumer properties " + o.propertiesFile);
            }
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--topic": {
                        String spec = value(args, ++i, arg);
                        int eq = spec.lastIndexOf('=');
                        String topic = eq < 0 ? spec : spec.substring(0, eq);
                        int n = eq < 0 ? 1 : positive(spec.substring(eq + 1), arg);
                        o.topics.put(topic, n);
                        break;
                    }
                    case "--whitelist":
                        o.filter = new Whitelist(value(args, ++i, arg));
                        break;
                    case "--blacklist":
                        o.filter = new Blacklist(value(args, ++i, arg));
                        break;
                    case "--streams":
                        o.streams = positive(value(args, ++i, arg), arg);
                        break;
                    case "--no-fetcher":
                        o.noFetcher = true;
                        break;
                    case "--max-messages":
                        o.maxMessages = positiveLong(value(args, ++i, arg), arg);
                        break;
                    case "--pause-ms":
                        o.pauseMs = positiveLong(value(args, ++i, arg), arg);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option " + arg);
                }
            }
            if (o.topics.isEmpty() == (o.filter == null)) {
                throw new IllegalArgumentException("give either --topic T=N (repeatable) or one of "
                        + "--whitelist/--blacklist");
            }
            return o;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static int positive(String s, String option) {
            long n = positiveLong(s, option);
            if (n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(option + " is too large: " + s);
            }
            return (int) n;
        }

        private static long positiveLong(String s, String option) {
            try {
                long n = Long.parseLong(s);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(option + " needs a positive number, got " + s);
        }
    }
}
