import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { smallZip } from '../infra/publishing/build-zip.js';
import { png, publisherToken, seedProject, seedPublisher, startPublishingServer, type PublishingServer } from '../api/publishing/publishing-api.js';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

type Shown = { status: number; body: string };

/** Opens the operation, fills its fields (`fill` gets the operation's block), executes it and answers what the page shows. */
async function tryItOut(page: Page, operationId: string, fill: (block: ReturnType<Page['locator']>) => Promise<void> = async () => undefined): Promise<Shown> {
  const block = page.locator(`.opblock[id$="-${operationId}"]`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  await fill(block);
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  const body = await block.locator('.live-responses-table .response .response-col_description').first().innerText();
  return { status: Number((await status.innerText()).trim()), body };
}

/** Pastes the token into the "Authorize" dialog for the named security scheme, as a reader would. */
async function authorize(page: Page, scheme: string, token: string): Promise<void> {
  await page.locator('.scheme-container button.authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  const form = dialog.locator('.auth-container', { hasText: scheme });
  await form.locator('input').first().fill(token);
  await form.locator('.auth-btn-wrapper button.authorize').click();
  await dialog.locator('button.btn-done').first().click();
}

describe('the Swagger UI pages in a browser', function () {
  this.timeout(120_000);
  let server: PublishingServer;
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];
  let scratch: string;

  before(async function () {
    if (!fs.existsSync(chromiumPath)) {
      if (process.env.CI) throw new Error(`no Chromium at ${chromiumPath}: CI must install it (apt-get install -y chromium)`);
      console.warn(`    skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
      this.skip();
    }
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'swagger-browser-'));
    server = await startPublishingServer();
    // A fresh profile per run (playwright takes it as the persistent context's directory).
    browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    // Every test authorizes from scratch: the pages keep a token in localStorage (persistAuthorization).
    await browser.addInitScript(() => localStorage.clear());
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  beforeEach(async () => {
    errors = [];
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
  });
  afterEach(async () => {
    await page?.close();
  });

  /** Loads the page and waits until Swagger UI has listed the document's operations. */
  async function open(docsPath: string): Promise<string[]> {
    await page.goto(`${server.url}${docsPath}`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(errors, 'script errors on the page').to.deep.equal([]);
    return page.locator('.opblock .opblock-summary-path').allInnerTexts();
  }

  it('/booking/docs lists the booking operations and runs one with a token', async () => {
    const paths = await open('/booking/docs');
    expect(paths).to.include.members(['/booking/v1/resources', '/booking/v1/bookings']);
    await authorize(page, 'bearerAuth', server.token({ level: 'LV2' }));
    const shown = await tryItOut(page, 'listResources');
    expect(shown.status, shown.body).to.equal(200);
  });

  it('/device/docs lists the record operations (descriptions hold "$`") and runs one with a token', async () => {
    const paths = await open('/device/docs');
    expect(paths).to.include.members(['/device/v1/zones', '/device/v1/devices']);
    await authorize(page, 'bearerAuth', server.token({ level: 'LV2' }));
    const shown = await tryItOut(page, 'listZones');
    expect(shown.status, shown.body).to.equal(200);
  });

  it('/catalog/docs lists the catalog operations and runs one with a token', async () => {
    const paths = await open('/catalog/docs');
    expect(paths).to.include.members(['/catalog/v1/projects', '/catalog/v1/applications']);
    await authorize(page, 'bearerAuth', server.token({ level: 'LV2' }));
    const shown = await tryItOut(page, 'listProjects');
    expect(shown.status, shown.body).to.equal(200);
  });

  it('/publish/docs lists the publishing operations and uploads a package with a publisher token', async () => {
    const publisher = await seedPublisher(server, 'browser@example.com');
    // Not '1.0': the page sends a number-like text field as a number ("1").
    await seedProject(server, 'notes', '1.0.0', publisher);
    const zip = path.join(scratch, 'notes.zip');
    fs.writeFileSync(zip, smallZip());
    // The form sends every file field, and empty image parts are refused (415): the reader attaches images.
    const icon = path.join(scratch, 'icon.png');
    fs.writeFileSync(icon, png);
    const paths = await open('/publish/docs');
    expect(paths).to.include('/publish/app');
    await authorize(page, 'publisherToken', publisherToken(publisher, 'browser@example.com'));
    const shown = await tryItOut(page, 'publishApp', async (block) => {
      for (const [name, value] of [['name', 'notes'], ['displayName', 'Notes'], ['version', '1.0.0']]) {
        await block.locator(`tr[data-property-name="${name}"] input`).fill(value!);
      }
      await block.locator('tr[data-property-name="file"] input[type=file]').setInputFiles(zip);
      await block.locator('tr[data-property-name="icon"] input[type=file]').setInputFiles(icon);
      await block.locator('tr[data-property-name="screenshots"] input[type=file]').first().setInputFiles(icon);
    });
    expect(shown.status, shown.body).to.equal(201);
    expect(shown.body).to.match(/"status": "SUBMISSION"/);
  });
});
