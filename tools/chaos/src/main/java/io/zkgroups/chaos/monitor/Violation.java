package io.zkgroups.chaos.monitor;

/**
 * One broken promise, with where and when.
 *
 * @param invariant which promise: {@code lost}, {@code duplicate}, {@code exclusivity}, {@code ownership},
 *                  {@code offset-backwards}, {@code stall}, {@code unhealthy}
 * @param offset    the record's offset, or -1 when the violation is not about one record
 * @param process   the member process at fault, or "-"
 * @param nanos     when (System.nanoTime()), or -1
 */
public record Violation(String invariant, int partition, long offset, String process, long nanos, String message) {
}
