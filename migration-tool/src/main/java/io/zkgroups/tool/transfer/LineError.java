package io.zkgroups.tool.transfer;

/** A line of an input file that cannot be used, with its 1-based number and the reason. */
public record LineError(int line, String reason) {

    @Override
    public String toString() {
        return "line " + line + ": " + reason;
    }
}
