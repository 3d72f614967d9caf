package io.zkgroups.tool.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: left-aligned columns separated by two spaces; null cells print as {@code -}. */
public final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.length);
        }
        List<String> row = new ArrayList<>(cells.length);
        for (Object cell : cells) {
            row.add(cell == null ? "-" : cell.toString());
        }
        rows.add(row);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public void print(PrintWriter out) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
        }
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        line(out, headers, widths);
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] widths) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            b.append(cell);
            if (i < cells.size() - 1) {
                b.append(" ".repeat(widths[i] - cell.length() + 2));
            }
        }
        out.println(b.toString().stripTrailing());
    }
}
