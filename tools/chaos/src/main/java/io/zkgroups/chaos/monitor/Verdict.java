package io.zkgroups.chaos.monitor;

import java.util.List;
import java.util.Map;

/**
 * What the monitor found.
 *
 * @param acked               records the producer had acknowledged
 * @param handedOut           hand-outs (a record handed out twice counts twice)
 * @param distinctHandedOut   distinct records handed out
 * @param duplicatesExplained repeats within an unclean end's uncommitted window
 * @param longestStallMs      per partition, the longest time with a backlog and no hand-out
 * @param counts              violations per invariant (every invariant listed, 0 included)
 * @param violations          every violation
 * @param uncleanEnds         per way a tenure ended uncleanly, the records handed out again from its window
 * @param notes               what could not be checked, and why
 */
public record Verdict(long acked, long handedOut, long distinctHandedOut, long duplicatesExplained,
                      Map<Integer, Long> longestStallMs, Map<String, Integer> counts, List<Violation> violations,
                      List<WindowSummary> uncleanEnds, List<String> notes) {

    /**
     * The tenures that ended {@code endedBy} (KILLED, LOST, REVOKE-TIMEOUT, VANISHED): how many, the records handed
     * out again from their uncommitted windows (total, largest), the largest bound, how many exceeded their bound,
     * and a histogram of repeats per end ("0", "1-5", ... -> ends).
     */
    public record WindowSummary(String endedBy, int ends, long repeats, long max, long maxBound, int overBound,
                                Map<String, Integer> histogram) {
    }

    public boolean passed() {
        return violations.isEmpty();
    }

    /** This verdict with one more note, first. */
    public Verdict withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes.size() + 1);
        more.add(note);
        more.addAll(notes);
        return new Verdict(acked, handedOut, distinctHandedOut, duplicatesExplained, longestStallMs, counts, violations,
                uncleanEnds, List.copyOf(more));
    }
}
