package io.zkgroups.bench;

import java.util.Arrays;

/** The {@code --name value} options of the benchmarks' main methods. */
final class BenchArgs {

    private BenchArgs() {
    }

    /** The value after {@code name}, or {@code otherwise} when {@code name} is not given. */
    static String string(String[] args, String name, String otherwise) {
        int i = Arrays.asList(args).indexOf(name);
        return i >= 0 && i + 1 < args.length ? args[i + 1] : otherwise;
    }

    static int integer(String[] args, String name, int otherwise) {
        return Integer.parseInt(string(args, name, Integer.toString(otherwise)));
    }
}
