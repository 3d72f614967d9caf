/**
 * Partition assignment exactly as Kafka 0.8.2.2's ZooKeeper consumer computes it.
 * <p>
 * Everything here is a pure function over a {@link io.zkgroups.rebalancer.assign.GroupSnapshot}: no I/O, no
 * clock, no threads. A 0.8.2.2 member computes only its own rows; these assignors return the whole group's
 * assignment (the union of what every member computes), from which a member takes
 * {@link io.zkgroups.rebalancer.assign.Assignment#forConsumer its own rows}.
 * <p>
 * Where 0.8.2.2 would fail (round robin over non-uniform subscriptions) or where its result cannot be
 * reproduced (round robin over exact hash collisions), the assignors throw an
 * {@link io.zkgroups.rebalancer.assign.AssignmentRefusedException} instead of guessing.
 */
package io.zkgroups.rebalancer.assign;
