import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';

/** How long one run of a client may take before it is killed: CI machines are loaded. */
const clientTimeoutMs = 60_000;

type ClientRun = { code: number | null; stdout: string; stderr: string };

/**
 * Runs one of Debian's client programs with `input` on its stdin, in an environment of its own
 * (HOME and XDG folders in `home`, nothing inherited, so neither the real home nor a pyenv python
 * on PATH is touched), killed after `clientTimeoutMs`.
 */
function runClient(program: string, args: string[], home: string, input = ''): Promise<ClientRun> {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, cwd: home, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${program} ${args.join(' ')}: killed after ${clientTimeoutMs} ms\n${stdout}\n${stderr}`));
    }, clientTimeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A program that exits without reading all of its input closes the pipe: that is no failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

type SyncedObject = { uid?: string; bookingId?: string; summary?: string };

/** The .ics files vdirsyncer wrote into a folder, read back (lines unfolded, RFC 5545 §3.1). */
async function syncedObjects(folder: string): Promise<SyncedObject[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.ics'));
  return Promise.all(
    names.map(async (name) => {
      const text = (await readFile(join(folder, name), 'utf8')).replace(/\r?\n[ \t]/g, '');
      const value = (property: string) => new RegExp(`^${property}(?:;[^:\\r\\n]*)?:(.*?)\\r?$`, 'm').exec(text)?.[1];
      return { uid: value('UID'), bookingId: value('X-BOOKING-ID'), summary: value('SUMMARY') };
    }),
  );
}

const bookingIdsIn = async (folder: string) => (await syncedObjects(folder)).map((o) => o.bookingId).sort();

/**
 * Debian's vdirsyncer (0.19) and khal (0.10), independent CalDAV clients, against the service
 * (contract §25): vdirsyncer signs in with a calendar password over HTTP Basic, discovers the
 * calendars and mirrors them into folders by etag; khal reads those folders.
 */
describe('CalDAV clients: vdirsyncer and khal (contract §25, §26)', function () {
  this.timeout(600_000);
  let server: TestServer;
  let home: string;
  let config: string;
  let room: string;
  let carol: string;
  const carolIds: string[] = [];
  let bobId: string;

  const roomFolder = () => join(home, 'room', 'bookings');
  const ownFolder = () => join(home, 'own', 'bookings');
  const create = async (token: string, start: string, end: string, title: string) => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-vdirsyncer', start, end, { title }), token });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  /** vdirsyncer with the test's config; its prompts (create the local folder?) answered yes. */
  const vdirsyncer = async (...args: string[]) => {
    const run = await runClient('/usr/bin/vdirsyncer', ['-c', config, ...args], home, 'y\n'.repeat(10));
    expect(run.code, `vdirsyncer ${args.join(' ')}:\n${run.stdout}\n${run.stderr}`).to.equal(0);
    return `${run.stdout}\n${run.stderr}`;
  };

  before(async () => {
    server = await startTestServer();
    carol = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
    const bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    room = await registerZone(server, 'room-vdirsyncer');
    setClock(server, '2027-03-01T08:00:00Z');
    carolIds.push(await create(carol, '2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z', 'Standup'));
    carolIds.push(await create(carol, '2027-03-15T13:00:00Z', '2027-03-15T14:00:00Z', 'Review'));
    bobId = await create(bob, '2027-03-16T09:00:00Z', '2027-03-16T10:00:00Z', 'Interview');

    const made = await server.request('POST', '/booking/v1/calendar-passwords', { token: carol, body: { label: 'vdirsyncer' } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const { username, password } = made.body as { username: string; password: string };

    home = await mkdtemp(join(tmpdir(), 'caldav-vdirsyncer-'));
    await mkdir(join(home, '.config'), { recursive: true });
    config = join(home, 'vdirsyncer.conf');
    // A room's calendar takes no writes (403): read-only there. The caller's own takes its events (contract §26).
    const remote = (name: string, url: string, readOnly: boolean) =>
      `[storage ${name}]\ntype = "caldav"\nurl = "${url}"\nusername = "${username}"\npassword = "${password}"\nread_only = ${readOnly}\n`;
    const local = (name: string, folder: string) => `[storage ${name}]\ntype = "filesystem"\npath = "${join(home, folder)}/"\nfileext = ".ics"\n`;
    // partial_sync applies where the server's side is read-only (the room's): local changes there stay local.
    const pair = (name: string, readOnly: boolean) =>
      `[pair ${name}]\na = "${name}_remote"\nb = "${name}_local"\ncollections = ["from a"]\nconflict_resolution = "a wins"\n${readOnly ? 'partial_sync = "ignore"\n' : ''}`;
    await writeFile(
      config,
      [
        `[general]\nstatus_path = "${join(home, 'status')}/"\n`,
        // The caller's calendars, found from the /dav/ URL alone (principal, then calendar-home-set).
        pair('own', false),
        remote('own_remote', `${server.url}/dav/`, false),
        local('own_local', 'own'),
        // A room's calendars: its calendar home, whose collection is bookings/.
        pair('room', true),
        remote('room_remote', `${server.url}/dav/calendars/resources/${room}/`, true),
        local('room_local', 'room'),
      ].join('\n'),
    );
  });
  after(async () => {
    await server?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("vdirsyncer discovers the caller's bookings/ from /dav/ and the room's bookings/ from its home, and syncs them", async () => {
    const discovered = await vdirsyncer('discover');
    expect(discovered, discovered).to.include('Saved for own: collections = ["bookings"]');
    expect(discovered, discovered).to.include('Saved for room: collections = ["bookings"]');
    await vdirsyncer('sync');

    const roomObjects = await syncedObjects(roomFolder());
    expect(roomObjects.map((o) => o.bookingId)).to.have.members([...carolIds, bobId]);
    for (const object of roomObjects) expect(object.uid).to.equal(`${object.bookingId}@workspace-booking`);
    // §2: carol sees her own titles; bob's booking, read by an LV4, is only busy.
    expect(roomObjects.find((o) => o.bookingId === bobId)?.summary).to.equal('Busy');
    expect(roomObjects.find((o) => o.bookingId === carolIds[0])?.summary).to.equal('Standup');
    expect(await bookingIdsIn(ownFolder())).to.deep.equal([...carolIds].sort());
  });

  it('a REST cancel and a REST create reach the folders on the next sync, and nothing unchanged is fetched again', async () => {
    const cancelled = carolIds[1]!;
    expect((await server.request('PATCH', `/booking/v1/bookings/${cancelled}/cancel`, { token: carol, body: {} })).status).to.equal(200);
    const added = await create(carol, '2027-03-20T09:00:00Z', '2027-03-20T10:00:00Z', 'Planning');
    carolIds.splice(1, 1, added);

    const log = await vdirsyncer('sync');
    expect(await bookingIdsIn(roomFolder())).to.deep.equal([...carolIds, bobId].sort());
    expect(await bookingIdsIn(ownFolder())).to.deep.equal([...carolIds].sort());
    // By etag: each folder copies the new object and deletes the cancelled one, and updates none.
    expect(log.match(/Copying \(uploading\) item \S+/g)?.sort(), log).to.deep.equal(Array(2).fill(`Copying (uploading) item ${added}@workspace-booking`));
    expect(log.match(/Deleting item \S+/g)?.sort(), log).to.deep.equal(Array(2).fill(`Deleting item ${cancelled}@workspace-booking`));
    expect(log, log).to.not.include('Copying (updating)');

    const again = await vdirsyncer('sync');
    expect(again, again).to.not.match(/Copying|Deleting/);
  });

  it("khal lists the room's synced bookings with the titles §2 shows the caller", async () => {
    const khalConfig = join(home, 'khal.conf');
    await writeFile(
      khalConfig,
      [
        '[calendars]',
        '[[room]]',
        `path = ${roomFolder()}`,
        '[locale]',
        'local_timezone = UTC',
        'default_timezone = UTC',
        'timeformat = %H:%M',
        'dateformat = %Y-%m-%d',
        'longdateformat = %Y-%m-%d',
        'datetimeformat = %Y-%m-%d %H:%M',
        'longdatetimeformat = %Y-%m-%d %H:%M',
        '[sqlite]',
        `path = ${join(home, 'khal.db')}`,
        '',
      ].join('\n'),
    );
    const run = await runClient('/usr/bin/khal', ['-c', khalConfig, 'list', '--format', '{start} {end} {title}', '--day-format', '', '2027-03-01', '2027-03-31'], home);
    expect(run.code, `${run.stdout}\n${run.stderr}`).to.equal(0);
    const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
    expect(lines, `${run.stdout}\n${run.stderr}`).to.deep.equal([
      '2027-03-02 09:00 2027-03-02 10:00 Standup',
      '2027-03-16 09:00 2027-03-16 10:00 Busy',
      '2027-03-20 09:00 2027-03-20 10:00 Planning',
    ]);
  });

  it('a new .ics in the synced folder, inviting the room, is uploaded and answered: the room books it (contract §26)', async () => {
    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//khal-like//EN',
      'BEGIN:VEVENT',
      'UID:vd-invite-1',
      'DTSTAMP:20270301T080000Z',
      'DTSTART:20270325T090000Z',
      'DTEND:20270325T100000Z',
      'SUMMARY:Offsite prep',
      'ORGANIZER:mailto:carol@example.com',
      `ATTENDEE;CUTYPE=ROOM;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${room}@resources.invalid`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ];
    await writeFile(join(ownFolder(), 'vd-invite-1.ics'), lines.join('\r\n'));
    const log = await vdirsyncer('sync');
    expect(log, log).to.include('Copying (uploading) item vd-invite-1');

    // The same calendar under the bearer's own path (its sub): vdirsyncer wrote it signed in with the calendar password.
    const stored = await server.request('GET', '/dav/calendars/users/carol/bookings/vd-invite-1.ics', { token: carol });
    const text = String(stored.body).replace(/\r\n[ \t]/g, '');
    expect(text, text).to.match(/ATTENDEE;[^\r\n]*PARTSTAT=ACCEPTED[^\r\n]*:mailto:/i);
    const bookingId = /X-BOOKING-ID=([0-9a-f-]{36})/i.exec(text)?.[1];
    const booking = await server.request('GET', `/booking/v1/bookings/${bookingId}`, { token: carol });
    expect(booking.body).to.include({ status: 'confirmed', calendarUid: 'vd-invite-1', title: 'Offsite prep', startTime: '2027-03-25T09:00:00Z', bookerProfileId: 'carol' });

    // The room's folder receives the booking on the next sync, as any other booking of the room.
    await vdirsyncer('sync');
    expect(await bookingIdsIn(roomFolder())).to.include(bookingId);
  });
});
