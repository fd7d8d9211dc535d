import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/** A single-node KRaft broker on loopback, started from Apache Kafka's jars (.ci/kafka/fetch). */
export type KafkaBroker = {
  brokers: string[];
  /** Stops the broker (SIGKILL: nothing flushed beyond what it already acknowledged) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

async function waitForPort(host: string, port: number, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Kafka broker exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the Kafka broker did not listen on ${port} within ${timeoutMs} ms`);
}

/**
 * The brokers the Kafka tests run against: KAFKA_BROKERS when given, else a broker started here from
 * KAFKA_LIBS. Null when neither is set outside CI; in CI a missing broker is an error, not a skip.
 */
export function kafkaAvailability(): 'external' | 'local' | null {
  if (process.env.KAFKA_BROKERS) return 'external';
  if (process.env.KAFKA_LIBS) return 'local';
  if (process.env.CI) throw new Error('CI needs a Kafka broker: set KAFKA_LIBS (see .ci/kafka/fetch) or KAFKA_BROKERS');
  return null;
}

/** `host`: the address clients reach the broker on (loopback by default; a test host's gateway to serve network namespaces). */
export async function startKafkaBroker({ host = '127.0.0.1' } = {}): Promise<KafkaBroker> {
  const external = process.env.KAFKA_BROKERS;
  if (external) {
    const brokers = external.split(',').map((b) => b.trim()).filter(Boolean);
    return {
      brokers,
      restart: () => Promise.reject(new Error('an external broker (KAFKA_BROKERS) cannot be restarted by the test')),
      stop: async () => undefined,
    };
  }
  const libs = process.env.KAFKA_LIBS;
  if (!libs) throw new Error('KAFKA_LIBS is not set');
  const classpath = `${libs}/*`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-'));
  const [port, controllerPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'server.properties');
  fs.writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://${host}:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://${host}:${port}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${path.join(dir, 'data')}`,
      'num.partitions=3',
      'offsets.topic.replication.factor=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      // Every acknowledged message is on disk before the broker answers: a SIGKILL loses nothing acknowledged.
      'log.flush.interval.messages=1',
    ].join('\n'),
  );
  const format = spawnSync('java', ['-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', 'MkU3OEVBNTcwNTJENDM2Qg', '-c', config], { encoding: 'utf8' });
  if (format.status !== 0) throw new Error(`formatting the Kafka storage failed: ${format.stderr || format.stdout}`);

  let child: ChildProcess;
  const launch = async () => {
    child = spawn('java', ['-Xmx512m', '-cp', classpath, 'kafka.Kafka', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    await waitForPort(host, port, 60_000, child);
  };
  const kill = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    brokers: [`${host}:${port}`],
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
