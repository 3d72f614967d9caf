// kafka-node 2.x's ZooKeeper-coordinated HighLevelConsumer, as an application runs it: joins group GROUP on TOPIC
// through ZooKeeper (zookeeper.connect ZK), prints "REC <partition> <offset> <value>" for each record, "REBALANCED"
// after each rebalance, and leaves the group (committing) on SIGTERM. Usage: node high-level-consumer.js ZK GROUP TOPIC
'use strict';
const kafka = require('kafka-node');

const [zk, group, topic] = process.argv.slice(2);
const client = new kafka.Client(zk, 'kafka-node-peer', { sessionTimeout: 6000, spinDelay: 100, retries: 2 });
const consumer = new kafka.HighLevelConsumer(client, [{ topic: topic }], {
  groupId: group,
  autoCommit: true,
  autoCommitIntervalMs: 200,
  fetchMaxWaitMs: 100,
  encoding: 'utf8'
});
consumer.on('message', (m) => console.log('REC ' + m.partition + ' ' + m.offset + ' ' + m.value));
consumer.on('rebalanced', () => console.log('REBALANCED ' + consumer.id));
consumer.on('error', (e) => console.log('ERROR ' + (e && e.message ? e.message : e)));
process.on('SIGTERM', () => consumer.close(true, () => {
  console.log('CLOSED');
  process.exit(0);
}));
