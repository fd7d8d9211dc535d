import fs from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { haproxyConfig } from '../../scripts/haproxy.js';

type Service = {
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  ports?: string[];
  stop_grace_period?: string;
  healthcheck?: unknown;
  build?: string;
};

/**
 * docker-compose.yml's `scale` profile (contract §19), checked without a Docker engine: three
 * nodes behind HAProxy configured as scripts/haproxy.ts renders it, and a streaming replica made
 * by pg_basebackup from the primary, which the nodes read from.
 */
describe("docker-compose's scale profile", () => {
  const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
  const services = compose.services;
  const nodes = ['booking-1', 'booking-2', 'booking-3'];
  /** A mount's file on this side (`./deploy/x:/in/container`), which must exist. */
  const mounted = (service: Service, target: string) => {
    const volume = (service.volumes ?? []).find((v) => v.split(':')[1] === target);
    expect(volume, `a volume mounted on ${target}`).to.be.a('string');
    const file = volume!.split(':')[0]!;
    expect(fs.existsSync(file), file).to.equal(true);
    return fs.readFileSync(file, 'utf8');
  };
  const dependencies = (service: Service) => (Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {}));
  const setting = (args: string[], name: string) => Number(args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1));

  it('holds three nodes, HAProxy and a replica, and starting HAProxy leaves the single booking service out', () => {
    const scale = Object.keys(services).filter((name) => services[name]!.profiles?.includes('scale'));
    expect(scale.sort()).to.deep.equal(['booking-1', 'booking-2', 'booking-3', 'haproxy', 'postgres-replica']);
    const started = new Set<string>();
    const start = (name: string) => {
      if (started.has(name)) return;
      started.add(name);
      dependencies(services[name]!).forEach(start);
    };
    start('haproxy');
    expect([...started].sort()).to.deep.equal(['booking-1', 'booking-2', 'booking-3', 'haproxy', 'kafka', 'postgres', 'postgres-replica']);
  });

  it("runs each node as the booking service, reading from the replica, draining within the platform's stop period", () => {
    const { environment: single } = services.booking!;
    for (const name of nodes) {
      const node = services[name]!;
      expect(node.build, name).to.equal('.');
      expect(node.environment, name).to.deep.equal({ ...single, DB_READ_HOST: 'postgres-replica', WEB_CONCURRENCY: 2, DB_POOL_SIZE: 10 });
      expect(node.depends_on, name).to.deep.include({ 'postgres-replica': { condition: 'service_healthy' }, postgres: { condition: 'service_healthy' } });
      // SHUTDOWN_GRACE_SECONDS is 25 by default: the platform must wait longer before it kills.
      expect(Number.parseInt(node.stop_grace_period ?? '10', 10), name).to.be.greaterThan(25);
      expect(node.volumes, `${name} shares the development key with the others`).to.deep.equal(services.booking!.volumes);
      expect(node.healthcheck).to.deep.equal(services.booking!.healthcheck);
    }
  });

  it('keeps nodes × processes × (DB_POOL_SIZE + the processors’ session connections) under max_connections', () => {
    const maxConnections = setting(services.postgres!.command!, 'max_connections');
    // docs/several-nodes.md: up to 6 session connections per worker process (4, +1 webhooks, +1 Kafka).
    const used = nodes.reduce((sum, name) => {
      const env = services[name]!.environment!;
      return sum + Number(env.WEB_CONCURRENCY) * (Number(env.DB_POOL_SIZE) + 6);
    }, 0);
    expect(used).to.be.lessThan(maxConnections);
    // A hot standby refuses to start with fewer connections than its primary allows.
    const replica = mounted(services['postgres-replica']!, '/deploy/postgres-replica.sh');
    expect(setting(replica.split(/\s+/).filter((w) => w.includes('=')), 'max_connections')).to.be.at.least(maxConnections);
  });

  it('makes the replica by pg_basebackup -R from a primary that lets the replication role stream', () => {
    const primary = services.postgres!;
    expect(setting(primary.command!, 'max_wal_senders')).to.be.greaterThan(0);
    expect(primary.command).to.include('wal_level=replica');
    const init = mounted(primary, '/docker-entrypoint-initdb.d/replication-user.sh');
    expect(init).to.match(/create role replicator with replication login password '\$\{REPLICATION_PASSWORD\}'/);
    expect(init).to.match(/echo "host replication replicator all scram-sha-256" >> "\$PGDATA\/pg_hba\.conf"/);

    const replica = services['postgres-replica']!;
    expect(replica.environment!.PGPASSWORD).to.equal(primary.environment!.REPLICATION_PASSWORD);
    expect(replica.depends_on).to.deep.equal({ postgres: { condition: 'service_healthy' } });
    expect(replica.command).to.deep.equal(['bash', '/deploy/postgres-replica.sh']);
    const script = mounted(replica, '/deploy/postgres-replica.sh');
    expect(script).to.match(/pg_basebackup -h postgres -U replicator -D "\$PGDATA" -R /);
    expect(script).to.match(/exec postgres -c hot_standby=on -c hot_standby_feedback=on /);
    expect(replica.volumes!.some((v) => v.endsWith(':/var/lib/postgresql/data'))).to.equal(true);
  });

  it("configures HAProxy as scripts/haproxy.ts renders it, in front of every node's port 3000", () => {
    const haproxy = services.haproxy!;
    expect(dependencies(haproxy).sort()).to.deep.equal(nodes);
    expect(haproxy.ports).to.deep.equal(['8080:3000']);
    const expected = haproxyConfig({ bind: ':3000', servers: nodes.map((name) => ({ name, address: name, port: 3000 })), nameserver: '127.0.0.11:53' });
    expect(mounted(haproxy, '/usr/local/etc/haproxy/haproxy.cfg'), 'deploy/haproxy.cfg is what scripts/haproxy.ts renders for the scale profile').to.equal(expected);
  });
});
