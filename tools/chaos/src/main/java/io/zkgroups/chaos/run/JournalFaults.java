package io.zkgroups.chaos.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The faults of a finished run, read back from its journal ({@code FAULT}, {@code FAULT-END}, {@code HEALTHY}...). */
final class JournalFaults {

    private JournalFaults() {
    }

    static List<FaultRecord> read(Path journal) {
        Map<Integer, String> names = new HashMap<>();
        Map<Integer, String> details = new HashMap<>();
        List<FaultRecord> records = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
                String[] f = line.split(" ", 5);
                if (f.length < 4) {
                    continue;
                }
                switch (f[0]) {
                    case "FAULT" -> names.put(Integer.parseInt(f[2]), f[3]);
                    case "FAULT-END" -> details.put(Integer.parseInt(f[2]), f[3] + (f.length > 4 ? " " + f[4] : ""));
                    case "HEALTHY", "UNHEALTHY" -> {
                        int index = Integer.parseInt(f[2]);
                        if (index > 0) {
                            records.add(new FaultRecord(index, names.get(index), details.getOrDefault(index, ""),
                                    f[0].equals("HEALTHY"), Long.parseLong(f[3]), f[0].equals("HEALTHY") ? 0 : -1));
                        }
                    }
                    default -> {
                        // other lines are not about the faults' outcome
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return records;
    }
}
