import { summarise, type Measurement } from './measure.js';

/** One measurement of several runs of the same scenario (each `seconds` long): their latencies, errors and client CPU together. */
export function pooled(rounds: Measurement[], seconds: number): Measurement {
  const unexpected: Record<string, number> = {};
  for (const round of rounds) for (const [status, n] of Object.entries(round.unexpected)) unexpected[status] = (unexpected[status] ?? 0) + n;
  const clientCpuMicros = rounds.reduce((sum, m) => sum + m.clientCpuMs * m.requests * 1000, 0);
  return summarise({ name: rounds[0]!.name, seconds: seconds * rounds.length }, rounds.flatMap((m) => m.latencies), unexpected, { user: clientCpuMicros, system: 0 });
}

/**
 * Runs the scenarios in turns (a, b, a, b, … `rounds` times each) and pools each one's rounds, so
 * that on a machine shared with other work both sides meet the same load. `round` tells a scenario
 * which run it is (fresh slots each time).
 */
export async function inTurns(rounds: number, seconds: number, scenarios: ((round: number) => Promise<Measurement>)[]): Promise<Measurement[]> {
  const taken = scenarios.map((): Measurement[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, scenario] of scenarios.entries()) taken[i]!.push(await scenario(round));
  }
  return taken.map((rounds) => pooled(rounds, seconds));
}
