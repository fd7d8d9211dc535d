import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A test host: a network namespace joined to this machine by a veth pair, with an address of its own. */
export type TestHost = {
  namespace: string;
  /** The host's address inside its namespace. */
  address: string;
  /** This machine's end of the pair: where the test host reaches servers the test runs here. */
  gateway: string;
  /** Starts `command` inside the namespace (the process's pid is the command's own). */
  spawn(command: string, args: string[], env: Record<string, string>): ChildProcess;
  remove(): Promise<void>;
};

/** Network namespaces need root and iproute2; elsewhere the multi-node tests use loopback ports or skip. */
export async function namespacesAvailable(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  return run('ip', ['netns', 'list']).then(
    () => true,
    () => false,
  );
}

/**
 * Test host `index` (1–250) of this run: namespace `wb<pid>-<index>`, addresses 10.231.<index>.2
 * inside and 10.231.<index>.1 here. Traffic goes only between this machine and its namespaces.
 */
export async function createTestHost(index: number): Promise<TestHost> {
  const tag = `${process.pid % 100_000}`;
  const namespace = `wb${tag}-${index}`;
  const outside = `wbh${tag}x${index}`.slice(0, 15);
  const inside = `wbn${tag}x${index}`.slice(0, 15);
  const gateway = `10.231.${index}.1`;
  const address = `10.231.${index}.2`;
  const ip = (...args: string[]) => run('ip', args);
  await ip('netns', 'add', namespace);
  try {
    await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
    await ip('link', 'set', inside, 'netns', namespace);
    await ip('addr', 'add', `${gateway}/24`, 'dev', outside);
    await ip('link', 'set', outside, 'up');
    await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/24`, 'dev', inside);
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', inside, 'up');
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
    // Servers listening on another test host's gateway (one Kafka broker for every host) are reached through this one's.
    await ip('netns', 'exec', namespace, 'ip', 'route', 'add', '10.231.0.0/16', 'via', gateway);
  } catch (error) {
    await ip('netns', 'del', namespace).catch(() => undefined);
    await ip('link', 'del', outside).catch(() => undefined);
    throw error;
  }
  return {
    namespace,
    address,
    gateway,
    spawn: (command, args, env) => spawn('ip', ['netns', 'exec', namespace, command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    async remove() {
      // Deleting the namespace deletes its end of the pair, and with it this one.
      await ip('netns', 'del', namespace).catch(() => undefined);
      await ip('link', 'del', outside).catch(() => undefined);
    },
  };
}
