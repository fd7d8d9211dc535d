/**
 * Where the seed finds the service: `--url`, else SEED_URL, else localhost on the port the service
 * itself reads (PORT, 3000 when unset), so `PORT=4000 npm run seed` beside `PORT=4000 npm start`
 * needs nothing more. Undefined when PORT is 0: the service then takes a port only it knows.
 */
export function seedBaseUrl(flag: string | undefined, seedUrl: string | undefined, port: number): string | undefined {
  const url = flag ?? (seedUrl || undefined) ?? (port === 0 ? undefined : `http://localhost:${port}`);
  return url?.replace(/\/+$/, '');
}
