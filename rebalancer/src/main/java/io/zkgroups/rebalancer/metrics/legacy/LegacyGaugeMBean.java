package io.zkgroups.rebalancer.metrics.legacy;

/** The JMX attribute of a 0.8.2.2 (Yammer metrics 2.2) gauge. */
public interface LegacyGaugeMBean {
    Object getValue();
}
