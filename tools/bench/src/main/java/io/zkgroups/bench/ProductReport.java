package io.zkgroups.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link ProductBench}'s tables: per size, phase and figure, each kind's median, each zkgroups kind's ratio to 0.8.2.2
 * (when it ran), and every repetition.
 */
final class ProductReport {

    private static final String LEGACY = "0.8.2.2";

    private ProductReport() {
    }

    static String markdown(List<ProductBench.Phase> phases, List<String> anomalies, List<String> kinds) {
        List<String> ratios = kinds.contains(LEGACY) ? kinds.stream().filter(k -> !k.equals(LEGACY)).toList() : List.of();
        StringBuilder out = new StringBuilder();
        Set<String> sizes = new LinkedHashSet<>();
        phases.forEach(ph -> sizes.add(ph.size()));
        for (String size : sizes) {
            out.append("#### ").append(size).append("\n\n| phase | figure |");
            kinds.forEach(k -> out.append(' ').append(k).append(" median |"));
            ratios.forEach(k -> out.append(' ').append(k).append(" / 0.8.2.2 |"));
            kinds.forEach(k -> out.append(' ').append(k).append(", every run |"));
            out.append("\n|---|---|").append("---:|".repeat(kinds.size() + ratios.size()))
                    .append("---|".repeat(kinds.size())).append('\n');
            Map<String, Map<String, List<Double>>> byFigure = new LinkedHashMap<>(); // "phase|figure" → kind → values
            for (ProductBench.Phase ph : phases) {
                if (ph.size().equals(size)) {
                    ph.figures().forEach((figure, value) -> byFigure
                            .computeIfAbsent(ph.phase() + "|" + figure, k -> new LinkedHashMap<>())
                            .computeIfAbsent(ph.impl(), k -> new ArrayList<>()).add(value));
                }
            }
            byFigure.forEach((key, values) -> {
                String[] pf = key.split("\\|", 2);
                out.append("| ").append(pf[0]).append(" | ").append(pf[1]).append(" |");
                kinds.forEach(k -> out.append(' ').append(number(ProductBench.median(values.getOrDefault(k, List.of()))))
                        .append(" |"));
                double legacy = ProductBench.median(values.getOrDefault(LEGACY, List.of()));
                ratios.forEach(k -> {
                    double ours = ProductBench.median(values.getOrDefault(k, List.of()));
                    out.append(' ').append(Double.isNaN(ours) || Double.isNaN(legacy) || legacy == 0 ? "—"
                            : String.format("%.2f×", ours / legacy)).append(" |");
                });
                kinds.forEach(k -> out.append(' ').append(all(values.getOrDefault(k, List.of()))).append(" |"));
                out.append('\n');
            });
            out.append('\n');
        }
        if (!anomalies.isEmpty()) {
            out.append("Anomalies:\n");
            anomalies.forEach(a -> out.append("- ").append(a).append('\n'));
        }
        return out.toString();
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "—" : Math.abs(v) >= 100 ? String.format("%.0f", v) : String.format("%.1f", v);
    }

    private static String all(List<Double> values) {
        return values.stream().map(ProductReport::number).collect(Collectors.joining(", "));
    }
}
