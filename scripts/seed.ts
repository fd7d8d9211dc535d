import { parseArgs } from 'node:util';
import { Temporal } from 'temporal-polyfill';
import { ConfigError, loadConfig, type Config } from '../src/infra/config.js';
import { mintDevToken, mintPublisherToken } from './dev-tokens.js';
import { dayAhead, workingWeek } from './seed-days.js';
import { seedBaseUrl } from './seed-url.js';

const usage = `Fills the running development service with a demo workspace, through its HTTP API.

  npm run -s seed [-- --url http://localhost:3000]

  --url <base URL>   the service (default: SEED_URL, else http://localhost:$PORT, PORT being 3000 when unset)
  -h, --help         this text

Run it with the service's DATA_DIR (default ./.data): the tokens are signed with the development key
kept there. Running it again adds nothing twice and prints fresh tokens.`;

/** The demo workspace; every record below is looked up before it is created. */
const workspace = '6f1c2f4e-8a4b-4c1e-9a57-3b2f0e1d9c11';
const timeZone = 'Europe/Berlin';
/** The stand-up's days (its rule says BYDAY=MO,WE,FR); its first start must be one of them. */
const standUpDays = [1, 3, 5];
/** The holiday's reason, by which a second run finds it. */
const holidayReason = 'Holiday';
/** The holiday's days: a Tuesday or Thursday, so that it never falls on a stand-up (MO, WE, FR) and hits no booking. */
const holidayDays = [2, 4];
const weekdays = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, [{ start: '08:00', end: '18:00' }]]));

type Answer = { status: number; body: any };
type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

function fail(message: string): never {
  process.stderr.write(`seed: ${message}\n`);
  process.exit(1);
}

function client(baseUrl: string, token: string): Call {
  return async (method, path, body) => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      return fail(`no service answers at ${baseUrl}: start it first (npm start) or pass --url`);
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/** The answer, when its status is one of `ok`; anything else ends the seed with what the service said. */
/** Alice's calendar password for the demo (contract §25): the one a run before made is deleted, so a run leaves one. */
async function ensureCalendarPassword(asMember: Call): Promise<{ username: string; password: string }> {
  const label = 'Demo calendar client';
  const listed = expectStatus(await asMember('GET', '/booking/v1/calendar-passwords'), [200], 'list calendar passwords');
  for (const old of (listed.data ?? listed) as { id: string; label: string }[]) {
    if (old.label === label) expectStatus(await asMember('DELETE', `/booking/v1/calendar-passwords/${old.id}`), [204], 'delete the demo calendar password');
  }
  const created = expectStatus(await asMember('POST', '/booking/v1/calendar-passwords', { label }), [201], 'calendar password');
  console.error(`  calendar password ${created.username}`);
  return created;
}

function expectStatus(answer: Answer, ok: number[], what: string): any {
  if (!ok.includes(answer.status)) fail(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function ensureZone(call: Call, id: string, name: string): Promise<void> {
  if ((await call('GET', `/device/v1/zones/${id}`)).status === 200) return;
  expectStatus(await call('POST', '/device/v1/zones', { id, name, parentZoneId: null, workspace }), [201], `zone ${id}`);
  console.error(`  zone ${id}`);
}

async function ensureResource(call: Call, resourceId: string, settings: Record<string, unknown>): Promise<string> {
  const list = expectStatus(await call('GET', '/booking/v1/resources?resourceType=zone&limit=100'), [200], 'resources');
  const existing = (list.data as { id: string; resourceId: string }[]).find((r) => r.resourceId === resourceId);
  if (existing) return existing.id;
  const created = expectStatus(await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId, ...settings }), [201], `resource ${resourceId}`);
  console.error(`  bookable resource ${resourceId}`);
  return created.id as string;
}

/** The demo's bookings by title, with their start: a second run finds what the first made, and on which days. */
async function bookingTitles(call: Call): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for (let page = 1; ; page++) {
    const list = expectStatus(await call('GET', `/booking/v1/bookings?limit=100&page=${page}`), [200], 'bookings');
    for (const booking of list.data as { title: string; startTime: string }[]) titles.set(booking.title, booking.startTime);
    if (page >= (list.pageCount ?? 1)) return titles;
  }
}

/** The bookings that give the demo its days 1 to 4, the days the README's tour names DAY1 … DAY4. */
const dayBookings = ['Demo: focus time', 'Demo: quarterly review', 'Demo: town hall (whole hall)', 'Demo: board meeting with video'];

/** Day n of the demo: the local date of its booking when a run made it (a second run keeps the first run's days), else n working days ahead. */
function demoDay(titles: Map<string, string>, n: number): Temporal.PlainDate {
  const start = titles.get(dayBookings[n - 1]!);
  return start ? Temporal.Instant.from(start).toZonedDateTimeISO(timeZone).toPlainDate() : workingDay(n, '00:00').toPlainDate();
}

/** The working day `ahead` working days after today, at `time` in the demo time zone. */
function workingDay(ahead: number, time: string, days: readonly number[] = workingWeek): Temporal.ZonedDateTime {
  return dayAhead(Temporal.Now.plainDateISO(timeZone), ahead, days).toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) });
}

async function ensureBooking(call: Call, titles: Map<string, string>, resourceId: string, title: string, day: number, from: string, to: string, units = 1): Promise<string | undefined> {
  if (titles.has(title)) return undefined;
  const body = { resourceType: 'zone', resourceId, title, startTime: workingDay(day, from).toString({ timeZoneName: 'never' }), endTime: workingDay(day, to).toString({ timeZoneName: 'never' }), units };
  const created = expectStatus(await call('POST', '/booking/v1/bookings', body), [201], `booking "${title}"`);
  console.error(`  booking "${title}" (${created.status})`);
  return created.id as string;
}

async function ensureRecord(call: Call, kind: string, filters: string[], body: Record<string, unknown>): Promise<any> {
  const query = filters.map((filter) => `filter=${encodeURIComponent(filter)}`).join('&');
  const list = expectStatus(await call('GET', `/catalog/v1/${kind}?${query}`), [200], kind);
  if (list.data.length > 0) return list.data[0];
  const created = expectStatus(await call('POST', `/catalog/v1/${kind}`, body), [201], `${kind} ${filters.join(', ')}`);
  console.error(`  ${kind.replace(/s$/, '')} ${created.id}`);
  return created;
}

/** The workspace-wide holiday, a whole local day; one with its reason is enough, whatever its date. */
async function ensureHoliday(call: Call, day: number): Promise<void> {
  const list = expectStatus(await call('GET', '/booking/v1/blackouts?limit=100'), [200], 'blackouts');
  if ((list.data as { reason: string; resourceIds: string[] | null }[]).some((b) => b.reason === holidayReason && b.resourceIds === null)) return;
  const from = workingDay(day, '00:00', holidayDays);
  const body = { from: from.toString({ timeZoneName: 'never' }), to: from.add({ days: 1 }).toString({ timeZoneName: 'never' }), reason: holidayReason };
  const created = expectStatus(await call('POST', '/booking/v1/blackouts', body), [201], `blackout "${holidayReason}"`);
  console.error(`  blackout "${holidayReason}" on ${from.toPlainDate()} (whole workspace; ${created.affected.length} bookings hit, none cancelled)`);
}

/** Alice waits for the board room's quarterly review slot (contract §23): once, beside the booking it waits behind. */
async function ensureWaitlistEntry(call: Call, day: number, from: string, to: string): Promise<string> {
  const body = { resourceType: 'zone', resourceId: 'demo-board-room', title: 'Demo: waiting for the board room', startTime: workingDay(day, from).toString({ timeZoneName: 'never' }), endTime: workingDay(day, to).toString({ timeZoneName: 'never' }) };
  const entry = expectStatus(await call('POST', '/booking/v1/waitlist', body), [201], 'waitlist entry');
  console.error(`  waitlist entry ${entry.id} (position ${entry.position} behind the quarterly review)`);
  return entry.id as string;
}

/** The quota of the focus room: hours per ISO week per person. */
async function ensureQuota(call: Call, resourceId: string, limit: number): Promise<void> {
  const list = expectStatus(await call('GET', '/booking/v1/quotas?limit=100'), [200], 'quotas');
  const same = (q: { resourceIds: string[] | null; unit: string; per: string }) => q.resourceIds?.length === 1 && q.resourceIds[0] === resourceId && q.unit === 'hours' && q.per === 'week';
  if ((list.data as Parameters<typeof same>[0][]).some(same)) return;
  const created = expectStatus(await call('POST', '/booking/v1/quotas', { resourceIds: [resourceId], limit, unit: 'hours', per: 'week', timeZone }), [201], 'quota');
  console.error(`  quota ${created.id} (${limit} hours per week per person on the focus room)`);
}

async function seed(config: Config, baseUrl: string): Promise<void> {
  const admin = mintDevToken(config, { level: 'LV2', workspace, sub: 'demo-admin', email: 'admin@demo.example' });
  const member = mintDevToken(config, { level: 'LV4', workspace, sub: 'demo-alice', email: 'alice@demo.example' });
  const approver = mintDevToken(config, { level: 'LV4', workspace, sub: 'demo-carol', email: 'carol@demo.example' });
  const platform = mintDevToken(config, { level: 'LV1', sub: 'demo-platform' });
  const asAdmin = client(baseUrl, admin);
  const asMember = client(baseUrl, member);
  const asPlatform = client(baseUrl, platform);

  const probe = await asAdmin('GET', '/booking/v1/resources?limit=1');
  if (probe.status === 401) fail(`${baseUrl} refuses this DATA_DIR's development key (${config.dataDir}): run the seed with the service's DATA_DIR`);
  expectStatus(probe, [200], 'first request');

  console.error(`seeding workspace ${workspace} at ${baseUrl}`);
  await ensureZone(asAdmin, 'demo-board-room', 'Board room');
  await ensureZone(asAdmin, 'demo-focus-room', 'Focus room');
  await ensureZone(asAdmin, 'demo-open-space', 'Open space');
  await ensureZone(asAdmin, 'demo-project-room', 'Project room');
  await ensureZone(asAdmin, 'demo-desk-area', 'Desk area (40 desks)');
  await ensureZone(asAdmin, 'demo-car-park', 'Car park (120 spaces)');
  await ensureZone(asAdmin, 'demo-hall-east', 'Hall, east half');
  await ensureZone(asAdmin, 'demo-hall-west', 'Hall, west half');
  await ensureZone(asAdmin, 'demo-hall', 'Hall (both halves)');
  await ensureZone(asAdmin, 'demo-video-kit', 'Video kit');
  const availability = { timeZone, hours: weekdays };
  const boardRoom = await ensureResource(asAdmin, 'demo-board-room', { capacity: 12, availability, bookingPolicy: { maxDurationMinutes: 240, autoConfirm: false, bufferAfterMinutes: 15 } });
  const focusRoom = await ensureResource(asAdmin, 'demo-focus-room', {
    capacity: 2,
    availability,
    bookingPolicy: { maxDurationMinutes: 120, minNoticeMinutes: 30, maxBookingsPerUser: 3, cancellationPolicy: { minNoticeMinutes: 60 } },
  });
  await ensureResource(asAdmin, 'demo-open-space', { capacity: 30, availability });
  // Decided by carol (LV4) or her delegate; undecided requests lapse an hour before they start.
  await ensureResource(asAdmin, 'demo-project-room', {
    capacity: 6,
    availability,
    bookingPolicy: { autoConfirm: false, approvers: ['demo-carol'], approvalDeadlineMinutes: 60, approvalReminderMinutes: 240 },
  });

  // Pools (contract §21): one resource each, counted in units.
  const deskArea = await ensureResource(asAdmin, 'demo-desk-area', { units: 40, availability, bookingPolicy: { maxDurationMinutes: 600 } });
  const carPark = await ensureResource(asAdmin, 'demo-car-park', { units: 120, bookingPolicy: { maxDurationMinutes: 720 } });
  // A combined room (contract §22): the hall is booked whole or by halves, never both at once.
  const east = await ensureResource(asAdmin, 'demo-hall-east', { capacity: 60, availability });
  const west = await ensureResource(asAdmin, 'demo-hall-west', { capacity: 60, availability });
  const hall = await ensureResource(asAdmin, 'demo-hall', { capacity: 120, availability, parts: [east, west] });
  await ensureResource(asAdmin, 'demo-video-kit', { availability });

  const titles = await bookingTitles(asAdmin);
  const review = await ensureBooking(asAdmin, titles, 'demo-board-room', 'Demo: quarterly review', 2, '10:00', '12:00');
  if (review) expectStatus(await asAdmin('PATCH', `/booking/v1/bookings/${review}/confirm`), [200], 'confirm the quarterly review');
  // Cancelling the review hands its time to this waiter in the same request.
  const waiting = review ? await ensureWaitlistEntry(asMember, 2, '10:00', '12:00') : undefined;
  await ensureBooking(asAdmin, titles, 'demo-board-room', 'Demo: hiring panel (awaiting confirmation)', 3, '14:00', '15:30');
  await ensureBooking(asMember, titles, 'demo-focus-room', 'Demo: focus time', 1, '09:00', '11:00');
  const request = await ensureBooking(asMember, titles, 'demo-project-room', 'Demo: project kick-off (awaiting carol)', 2, '13:00', '14:00');
  await ensureBooking(asAdmin, titles, 'demo-desk-area', 'Demo: team day (12 desks)', 1, '09:00', '17:00', 12);
  await ensureBooking(asMember, titles, 'demo-desk-area', 'Demo: a desk for the morning', 1, '08:00', '12:00');
  await ensureBooking(asAdmin, titles, 'demo-car-park', 'Demo: visitors parking (5 spaces)', 1, '08:00', '18:00', 5);
  await ensureBooking(asAdmin, titles, 'demo-hall', 'Demo: town hall (whole hall)', 3, '10:00', '11:00');
  await ensureBooking(asMember, titles, 'demo-hall-east', 'Demo: workshop (east half)', 3, '13:00', '15:00');
  // The board room with the video kit, booked as one (contract §22).
  if (!titles.has('Demo: board meeting with video')) {
    const bundle = {
      title: 'Demo: board meeting with video',
      startTime: workingDay(4, '09:00').toString({ timeZoneName: 'never' }),
      endTime: workingDay(4, '10:00').toString({ timeZoneName: 'never' }),
      items: [
        { resourceType: 'zone', resourceId: 'demo-board-room' },
        { resourceType: 'zone', resourceId: 'demo-video-kit' },
      ],
    };
    const created = expectStatus(await asAdmin('POST', '/booking/v1/bundles', bundle), [201], 'bundle "Demo: board meeting with video"');
    console.error(`  bundle "Demo: board meeting with video" (${created.bookings.length} bookings)`);
  }
  if (!titles.has('Demo: stand-up')) {
    const start = workingDay(1, '09:30', standUpDays);
    const series = {
      resourceType: 'zone',
      resourceId: 'demo-open-space',
      title: 'Demo: stand-up',
      startTime: start.toString({ timeZoneName: 'never' }),
      endTime: start.add({ minutes: 15 }).toString({ timeZoneName: 'never' }),
      recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12',
      timeZone,
    };
    const created = expectStatus(await asAdmin('POST', '/booking/v1/bookings/bulk', series), [201], 'series "Demo: stand-up"');
    console.error(`  series "Demo: stand-up" (${created.occurrences.length} occurrences)`);
  }

  // After the bookings, which it must not hit: ten working days (two weeks) ahead, bookings kept.
  await ensureHoliday(asAdmin, 5);
  await ensureQuota(asAdmin, focusRoom, 8);

  const publisher = await ensureRecord(asPlatform, 'publishers', ['email||$eq||publisher@demo.example'], { email: 'publisher@demo.example', name: 'Demo Apps Ltd', verified: true });
  if (!publisher.verified) expectStatus(await asPlatform('PATCH', `/catalog/v1/publishers/${publisher.id}`, { verified: true }), [200], 'verify the publisher');
  const project = await ensureRecord(asPlatform, 'projects', ['appName||$eq||demo-notes', 'appVersion||$eq||1.0.0'], { appName: 'demo-notes', appVersion: '1.0.0', publisherId: publisher.id, description: 'A note-taking app for meeting rooms' });
  // The next version's project, whose package the publisher uploads in the README's tour (examples/demo-notes.zip).
  await ensureRecord(asPlatform, 'projects', ['appName||$eq||demo-notes', 'appVersion||$eq||1.1.0'], { appName: 'demo-notes', appVersion: '1.1.0', publisherId: publisher.id, description: 'A note-taking app for meeting rooms' });
  const application = await ensureRecord(asPlatform, 'applications', ['name||$eq||demo-notes', 'version||$eq||1.0.0'], {
    name: 'demo-notes',
    displayName: 'Demo Notes',
    version: '1.0.0',
    description: 'Takes the minutes of a booked meeting',
    category: 'productivity',
    semVer: '1.0.0',
    projectId: project.id,
    publisherId: publisher.id,
  });
  // Through the review steps to the marketplace.
  const path: Record<string, string> = { SUBMISSION: 'REVIEW', REVIEW: 'APPROVAL', APPROVAL: 'PRE_RELEASE', PRE_RELEASE: 'RELEASE', UNAVAILABLE: 'RELEASE' };
  for (let status = application.status as string; path[status]; status = path[status]!) {
    expectStatus(await asPlatform('PATCH', `/catalog/v1/applications/${application.id}/status`, { status: path[status] }), [200], `application status ${path[status]}`);
  }
  const calendar = await ensureCalendarPassword(asMember);
  const days = [1, 2, 3, 4].map((n) => demoDay(titles, n));
  const at = (n: number, time: string) => days[n - 1]!.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) });
  const publisherToken = mintPublisherToken(config, { id: Number(publisher.id), email: 'publisher@demo.example' });

  console.log(`Demo workspace ${workspace} is ready at ${baseUrl}.

Tokens (12 hours; the publisher's one year):
  export ADMIN_TOKEN=${admin}      # LV2, workspace admin
  export MEMBER_TOKEN=${member}    # LV4, alice
  export APPROVER_TOKEN=${approver}    # LV4, carol, approver of the project room
  export PUBLISHER_TOKEN=${publisherToken}    # publisher ${publisher.id}

Calendar client (Thunderbird, Apple Calendar, DAVx5: a CalDAV account), as alice; a new password each run:
  URL ${baseUrl}/dav/   username ${calendar.username}   password ${calendar.password}
  export CALDAV_USER=${calendar.username} CALDAV_PASSWORD=${calendar.password}

Resources and days of the demo (the README's tour uses them):
  export BOARD_ROOM=${boardRoom} FOCUS_ROOM=${focusRoom} DESK_AREA=${deskArea} CAR_PARK=${carPark} HALL=${hall} HALL_WEST=${west}
  export DAY1=${days[0]} DAY2=${days[1]} DAY3=${days[2]} DAY4=${days[3]}    # days of the focus time, the quarterly review, the town hall, the board meeting (Europe/Berlin)

Try:
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/bookings'
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/resources/${focusRoom}/available-slots?date=${at(1, '00:00').toPlainDate()}&slotMinutes=30'
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/free-resources?from=${encodeURIComponent(at(2, '10:00').toString({ timeZoneName: 'never' }))}&to=${encodeURIComponent(at(2, '11:00').toString({ timeZoneName: 'never' }))}&minCapacity=8&tz=${timeZone}'
  curl -s -X POST -H "authorization: Bearer $MEMBER_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/bookings' \
    -d '{"resourceType":"zone","resourceId":"demo-desk-area","title":"A desk","startTime":"${at(1, '13:00').toString({ timeZoneName: 'never' })}","endTime":"${at(1, '17:00').toString({ timeZoneName: 'never' })}"}'    # one of the 40 desks
  curl -s -X POST -H "authorization: Bearer $MEMBER_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/bookings' \
    -d '{"resourceType":"zone","resourceId":"demo-car-park","title":"Parking","startTime":"${at(1, '08:00').toString({ timeZoneName: 'never' })}","endTime":"${at(1, '18:00').toString({ timeZoneName: 'never' })}","units":2}'    # two spaces
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/resources/${deskArea}/schedule?from=${encodeURIComponent(at(1, '00:00').toString({ timeZoneName: 'never' }))}&to=${encodeURIComponent(at(2, '00:00').toString({ timeZoneName: 'never' }))}&tz=${timeZone}'    # "usage": desks in use, run by run
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/resources/${carPark}/available-slots?date=${at(1, '00:00').toPlainDate()}&slotMinutes=60&units=4&tz=${timeZone}'    # each slot's availableUnits
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/resources/${west}/schedule?from=${encodeURIComponent(at(3, '00:00').toString({ timeZoneName: 'never' }))}&to=${encodeURIComponent(at(4, '00:00').toString({ timeZoneName: 'never' }))}&tz=${timeZone}'    # the town hall occupies the west half: "viaResourceId"
  curl -s -X POST -H "authorization: Bearer $MEMBER_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/bookings' \
    -d '{"resourceType":"zone","resourceId":"demo-hall","title":"Whole hall","startTime":"${at(3, '14:00').toString({ timeZoneName: 'never' })}","endTime":"${at(3, '15:00').toString({ timeZoneName: 'never' })}"}'    # 409: the east half's workshop is in the way
  curl -s -X POST -H "authorization: Bearer $MEMBER_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/bundles' \
    -d '{"title":"Offsite prep","startTime":"${at(4, '14:00').toString({ timeZoneName: 'never' })}","endTime":"${at(4, '15:00').toString({ timeZoneName: 'never' })}","items":[{"resourceType":"zone","resourceId":"demo-hall-west"},{"resourceType":"zone","resourceId":"demo-video-kit"}]}'    # a half and the kit, all or nothing
  curl -s -H "authorization: Bearer $ADMIN_TOKEN" '${baseUrl}/catalog/v1/applications/released'
  curl -s -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/waitlist?resourceType=zone&resourceId=demo-board-room'${
    review && waiting ? `
  curl -s -X PATCH -H "authorization: Bearer $ADMIN_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/bookings/${review}/cancel' -d '{}'    # then the entry above is fulfilled, with its bookingId
  curl -s -X DELETE -H "authorization: Bearer $MEMBER_TOKEN" '${baseUrl}/booking/v1/waitlist/${waiting}'    # or leave the waitlist` : ''
  }
  curl -s -H "authorization: Bearer $APPROVER_TOKEN" '${baseUrl}/booking/v1/approvals'${
    request ? `
  curl -s -X PATCH -H "authorization: Bearer $APPROVER_TOKEN" '${baseUrl}/booking/v1/bookings/${request}/confirm'` : ''
  }
  curl -s -X POST -H "authorization: Bearer $APPROVER_TOKEN" -H 'content-type: application/json' '${baseUrl}/booking/v1/approval-delegations' \
    -d '{"delegateProfileId":"demo-admin","from":"${workingDay(0, '00:00').toInstant()}","to":"${workingDay(5, '00:00').toInstant()}"}'

Or paste a token into "Authorize" at ${baseUrl}/booking/docs.`);
}

function main(): Promise<void> {
  let values;
  try {
    values = parseArgs({ options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    return Promise.resolve();
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
  if (config.appEnv !== 'development' || config.auth.endpoint) fail('the seed uses development tokens: run it against a development service (APP_ENV development, PLATFORM_AUTH_ENDPOINT unset)');
  const baseUrl = seedBaseUrl(values.url, process.env.SEED_URL, config.port);
  if (!baseUrl) fail('PORT is 0, a port the service picks at start: pass its address with --url');
  return seed(config, baseUrl);
}

await main();
