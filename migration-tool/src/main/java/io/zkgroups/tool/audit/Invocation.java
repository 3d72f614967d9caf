package io.zkgroups.tool.audit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Who ran which command, for the audit journal: the operating-system user, the host, the command line (secrets
 * redacted) and the tool's version.
 */
public record Invocation(String user, String host, String command, String version) {

    /** Options whose value is a secret and never written to the journal. */
    private static final Set<String> SECRET_OPTIONS = Set.of("--zk-auth");

    /** The invocation of this process: {@code command} is the command's name, {@code args} its arguments. */
    public static Invocation current(String command, List<String> args, String version) {
        return new Invocation(System.getProperty("user.name", "unknown"), localHost(),
                String.join(" ", redact(command, args)), version);
    }

    static List<String> redact(String command, List<String> args) {
        List<String> words = new ArrayList<>();
        words.add(command);
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            int eq = a.indexOf('=');
            if (eq > 0 && SECRET_OPTIONS.contains(a.substring(0, eq))) {
                words.add(a.substring(0, eq) + "=***");
            } else if (SECRET_OPTIONS.contains(a) && i + 1 < args.size()) {
                words.add(a);
                words.add("***");
                i++;
            } else {
                words.add(a);
            }
        }
        return words;
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return System.getenv().getOrDefault("HOSTNAME", "unknown");
        }
    }
}
