package io.zkgroups.chaos.run;

/**
 * One injected fault and what followed.
 *
 * @param healthyMs  from the end of the fault (after its undo) until {@code health --wait} said healthy, or the
 *                   time waited when it did not
 */
public record FaultRecord(int index, String name, String detail, boolean healthy, long healthyMs, int healthExit) {
}
