package io.zkgroups.tool.transfer;

import java.util.List;

/**
 * The result of reading a whole offset file: the records (each partition once), the line each came from, and
 * every bad line. Callers write nothing unless {@link #errors()} is empty.
 */
public record ParsedOffsetFile(List<OffsetRecord> records, List<Integer> lines, List<LineError> errors) {

    public ParsedOffsetFile {
        records = List.copyOf(records);
        lines = List.copyOf(lines);
        errors = List.copyOf(errors);
        if (records.size() != lines.size()) {
            throw new IllegalArgumentException("one line number per record");
        }
    }

    public boolean isValid() {
        return errors.isEmpty();
    }
}
