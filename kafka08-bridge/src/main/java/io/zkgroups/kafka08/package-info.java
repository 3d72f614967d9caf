/**
 * The machinery behind the 0.8 API classes of this module: not an API. {@code kafka.*} classes are the API; they
 * delegate here.
 * <p>
 * One fetcher thread ({@link io.zkgroups.kafka08.FetchLoop}) owns the connector's
 * {@link io.zkgroups.rebalancer.consumer.ZkGroupConsumer}: it polls, cuts what it gets into chunks of one partition and
 * queues them on the partition's stream ({@link io.zkgroups.kafka08.StreamChannel}), runs the rebalance callbacks and
 * every commit. Stream threads take records out of their channel; the
 * {@link io.zkgroups.kafka08.HandOutLedger} decides, under one lock, whether a record may still be handed out and
 * remembers what was, so a commit covers exactly the records handed out and none is handed out after its partition
 * was revoked.
 */
package io.zkgroups.kafka08;
