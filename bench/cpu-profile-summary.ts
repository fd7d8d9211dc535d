import { readFile } from 'node:fs/promises';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** Where a function lives: its npm package, node itself, or a file of this service. */
function placeOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:') || url === '') return 'node';
  const own = /\/(src\/.*)$/.exec(url);
  return own ? own[1]! : url;
}

/**
 * The self time of V8 .cpuprofiles (node --cpu-prof; one per process of the service) summed by
 * function and by package, busy time only ("(idle)" left out), as markdown: what the bench prints
 * after `--cpu-prof`.
 */
export async function summariseCpuProfile(files: readonly string[], requests: number, options: { skipMs: number; top?: number }): Promise<string> {
  const top = options.top ?? 12;
  const selfUs = new Map<ProfileNode, number>();
  let profiledUs = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    // Samples from the start of the load on: the process's start-up (module loading, tsx) is not the work per request.
    let elapsedUs = 0;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      elapsedUs += delta;
      if (elapsedUs < options.skipMs * 1000) return;
      profiledUs += delta;
      const node = byId.get(id)!;
      selfUs.set(node, (selfUs.get(node) ?? 0) + delta);
    });
  }
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let busyUs = 0;
  for (const [node, us] of selfUs) {
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busyUs += us;
    const name = functionName.startsWith('(') ? functionName : `${functionName || '(anonymous)'} ${placeOf(url)}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const place = functionName.startsWith('(') ? functionName : placeOf(url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const share = (us: number) => `${((us / busyUs) * 100).toFixed(1)} %`;
  const table = (title: string, entries: Map<string, number>) => [
    `| ${title} | self | share |`,
    '|---|---:|---:|',
    ...[...entries].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => `| ${name.replaceAll('|', '\\|')} | ${(us / 1000).toFixed(0)} ms | ${share(us)} |`),
  ];
  return [
    `Busy ${(busyUs / 1000).toFixed(0)} ms of ${(profiledUs / 1000).toFixed(0)} ms profiled in ${files.length} processes (the first ${(options.skipMs / 1000).toFixed(1)} s, start-up, left out); ${requests} requests: ${(busyUs / 1000 / Math.max(1, requests)).toFixed(2)} ms of CPU per request`,
    '',
    ...table('By package / file', byPlace),
    '',
    ...table('By function', byFunction),
  ].join('\n');
}
