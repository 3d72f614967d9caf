package io.zkgroups.tool.cli;

/** {@code --output}: a table for people, JSON for scripts. */
public enum OutputFormat {
    table, json
}
