package io.zkgroups.bench;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Option value types the benchmarks share beyond picocli's own: each rejects a bad value with a message saying why. */
final class BenchOptionTypes {

    private BenchOptionTypes() {
    }

    /** A group size, {@code MEMBERSxPARTITIONS} on the command line (e.g. {@code 10x100}). */
    record GroupSize(int members, int partitions) {

        @Override
        public String toString() {
            return members + "x" + partitions;
        }
    }

    /** {@code MxP}, both positive. */
    static final class GroupSizeConverter implements ITypeConverter<GroupSize> {
        @Override
        public GroupSize convert(String value) {
            String[] parts = value.split("x", -1);
            if (parts.length != 2) {
                throw new TypeConversionException("expected MEMBERSxPARTITIONS such as 10x100, got '" + value + "'");
            }
            try {
                GroupSize size = new GroupSize(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
                if (size.members() < 1 || size.partitions() < 1) {
                    throw new TypeConversionException("members and partitions must be positive, got '" + value + "'");
                }
                return size;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("expected MEMBERSxPARTITIONS such as 10x100, got '" + value + "'");
            }
        }
    }

    /** A partition assignment strategy the assignors know (range, roundrobin, sticky), spelled exactly. */
    static final class StrategyConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                PartitionAssignor.forStrategy(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of " + PartitionAssignor.RANGE + ", "
                        + PartitionAssignor.ROUND_ROBIN + ", " + PartitionAssignor.STICKY);
            }
        }
    }

    /**
     * A constant of {@code E}, written as its lower-case name ({@code ours} for {@code OURS}); a subclass per enum
     * gives picocli the no-argument converter it instantiates.
     */
    abstract static class LowerCaseEnumConverter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;

        LowerCaseEnumConverter(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String value) {
            List<String> names = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                String name = constant.name().toLowerCase(Locale.ROOT);
                if (name.equals(value)) {
                    return constant;
                }
                names.add(name);
            }
            throw new TypeConversionException("expected one of " + String.join(", ", names) + ", got '" + value + "'");
        }
    }

    /** An int that may be written with underscores between digits, as in Java: {@code 1_000_000}. */
    static final class GroupedIntConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            if (value.startsWith("_") || value.endsWith("_")) {
                throw new TypeConversionException("'" + value + "' is not an int");
            }
            try {
                return Integer.parseInt(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not an int");
            }
        }
    }

    /** {@code 0} or {@code 1}, nothing else (a switch; not a boolean field, which picocli takes for a flag). */
    static final class ZeroOrOneConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return switch (value) {
                case "0" -> 0;
                case "1" -> 1;
                default -> throw new TypeConversionException("expected 0 or 1, got '" + value + "'");
            };
        }
    }
}
