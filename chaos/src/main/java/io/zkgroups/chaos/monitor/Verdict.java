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
 * @param notes               what could not be checked, and why
 */
public record Verdict(long acked, long handedOut, long distinctHandedOut, long duplicatesExplained,
                      Map<Integer, Long> longestStallMs, Map<String, Integer> counts, List<Violation> violations,
                      List<String> notes) {

    public boolean passed() {
        return violations.isEmpty();
    }

    /** This verdict with one more note, first. */
    public Verdict withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes.size() + 1);
        more.add(note);
        more.addAll(notes);
        return new Verdict(acked, handedOut, distinctHandedOut, duplicatesExplained, longestStallMs, counts, violations,
                List.copyOf(more));
    }
}
