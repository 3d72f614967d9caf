package io.zkgroups.rebalancer.metrics.legacy;

import java.util.function.Supplier;

/** A 0.8.2.2 gauge over JMX: {@code Value}, read when asked. */
public final class LegacyGauge implements LegacyGaugeMBean {

    private final Supplier<?> value;

    public LegacyGauge(Supplier<?> value) {
        this.value = value;
    }

    @Override
    public Object getValue() {
        return value.get();
    }
}
