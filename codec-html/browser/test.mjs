// `codec serve`'s HTML pages in a real browser: Debian's Chromium
// (/usr/bin/chromium, never a downloaded one), driven by playwright-core.
//
// Run from the repository root after `cargo build -p codec-cli`:
//
//   npm ci --prefix codec-html/browser
//   node --test codec-html/browser/test.mjs
//
// Environment: CODEC_BIN (default target/debug/codec), CHROMIUM (default
// /usr/bin/chromium), ARTIFACTS (default target/browser): where the
// screenshots go, for a person to look at; they are not compared.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const data = join(here, '../tests/data');
const CODEC_BIN = process.env.CODEC_BIN ?? join(root, 'target/debug/codec');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = process.env.ARTIFACTS ?? join(root, 'target/browser');
const DOCUMENTS = ['github', 'nested-config', 'hostile'];
// The flags that work on this kind of machine (see .ci/run): no sandbox as
// root, and no background connections to a network that is closed.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server;
let base;
let chrome;
let browser;
let scratch;
const values = {};

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'codec-html-browser-'));
  const served = join(scratch, 'served');
  mkdirSync(served);
  for (const name of DOCUMENTS) {
    copyFileSync(join(data, `${name}.json`), join(served, `${name}.json`));
    values[name] = JSON.parse(readFileSync(join(data, `${name}.json`), 'utf8'));
  }
  server = spawn(CODEC_BIN, ['serve', '--addr', '127.0.0.1:0', served], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  base = await new Promise((resolveBase, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`codec serve did not start:\n${log}`)), 20000);
    server.on('error', (e) => reject(new Error(`${CODEC_BIN}: ${e.message} (cargo build -p codec-cli)`)));
    server.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /on (http:\/\/[0-9.:]+)\//.exec(log);
      if (match) {
        clearTimeout(timer);
        resolveBase(match[1]);
      }
    });
  });
  // Drain the request log so the server never blocks on a full pipe.
  server.stderr.resume();
  // playwright-core gives the browser a fresh, empty --user-data-dir.
  chrome = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  browser = await chrome.newContext({ viewport: { width: 1280, height: 800 } });
});

after(async () => {
  await chrome?.close();
  server?.kill('SIGINT');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/// Opens a page, failing the test on any script dialog, page error or
/// policy violation the browser reports.
async function open(context, path, { colorScheme = 'light' } = {}) {
  const page = await context.newPage();
  const problems = [];
  page.on('dialog', async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own request for /favicon.ico is a 404 of the server's,
    // not the page's doing (the policy stops it; without the policy the
    // browser asks).
    const favicon = /favicon\.ico/.test(message.location().url ?? '');
    if ((message.type() === 'error' && !favicon) || /Content Security Policy/i.test(message.text())) {
      problems.push(`console: ${message.text()} (${message.location().url})`);
    }
  });
  // Nothing but the page itself is fetched: no script, style, image, font
  // or frame, whatever the value holds.
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== base || (url.pathname !== path.split('?')[0] && url.pathname !== '/favicon.ico')) {
      problems.push(`request: ${request.url()}`);
    }
  });
  await page.emulateMedia({ colorScheme });
  const response = await page.goto(base + path);
  return { page, response, problems };
}

/// The page's blocks, as `h2`, `table 3`, `tr`, `dl`, `dt`, `code rust`, `p`.
function pageBlocks(page) {
  return page.$$eval(
    'main h2, main h3, main h4, main h5, main h6, main table, main tbody tr, main dl, main dt, main pre > code, main > p',
    (elements) =>
      elements.map((e) => {
        const name = e.localName;
        if (name === 'table') return `table ${e.querySelectorAll('thead th').length}`;
        if (name === 'code') return `code ${(e.className.match(/^language-(.*)$/) ?? [, ''])[1]}`;
        return name;
      }),
  );
}

/// The same blocks of the markdown the server gives an agent, read line by
/// line: in codec-md's schema no line starts with user text outside a
/// fence, so a line's first characters say what it is.
function markdownBlocks(markdown) {
  const blocks = [];
  let fence = null;
  let previous = '';
  for (const line of markdown.split('\n')) {
    if (fence) {
      // A fence is longer than any backtick run inside it.
      if (/^\s*`+$/.test(line) && line.trim().length >= fence.length) fence = null;
      previous = line;
      continue;
    }
    const opening = /^\s*(`{3,})(.*)$/.exec(line);
    if (opening) {
      fence = opening[1];
      blocks.push(`code ${opening[2]}`);
    } else if (/^#{1,6}( |$)/.test(line)) {
      blocks.push(`h${Math.min(line.match(/^#+/)[0].length + 1, 6)}`);
    } else if (/^\|(-{3}\|)+$/.test(line)) {
      blocks.pop();
      const cells = previous.replace(/\\\|/g, '').split('|').length - 2;
      blocks.push(`table ${cells}`);
    } else if (line.startsWith('|')) {
      blocks.push('tr');
    } else if (line.startsWith('- ')) {
      if (!previous.startsWith('- ') && !previous.startsWith('  ')) blocks.push('dl');
      blocks.push('dt');
    } else if (line !== '' && !line.startsWith('  ')) {
      blocks.push('p');
    }
    previous = line;
  }
  return blocks;
}

/// Every string of a value, keys included, as the DOM holds it.
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value.replaceAll('\0', '\uFFFD'));
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k.replaceAll('\0', '\uFFFD'));
      strings(v, out);
    }
  }
  return out;
}

/// What a value cannot have added: the page's own elements and attributes
/// only, no event handler or style attribute, links only to the alternates
/// and to plain http(s) URLs that are their own text.
async function checkOnlyOwnMarkup(page, label) {
  const report = await page.evaluate(() => {
    const allowed = new Set(
      'html head meta title link style body header nav main section h1 h2 h3 h4 h5 h6 p div table thead tbody tr th td dl dt dd span pre code a data'.split(' '),
    );
    const attributes = new Set('lang charset http-equiv name content rel type href aria-label class tabindex colspan value'.split(' '));
    const problems = [];
    for (const e of document.querySelectorAll('*')) {
      if (!allowed.has(e.localName)) problems.push(`element <${e.localName}>`);
      for (const a of e.attributes) if (!attributes.has(a.name)) problems.push(`attribute ${a.name} on <${e.localName}>`);
    }
    if (document.querySelectorAll('style').length !== 1) problems.push('not one stylesheet');
    for (const link of document.querySelectorAll('link')) {
      if (link.rel !== 'alternate' || !link.getAttribute('href').startsWith('?format=')) problems.push(`link ${link.outerHTML}`);
    }
    for (const a of document.querySelectorAll('main a')) {
      const href = a.getAttribute('href');
      if (href !== a.textContent || !/^https?:$/.test(a.protocol) || a.rel !== 'nofollow noopener noreferrer') problems.push(`a ${a.outerHTML}`);
    }
    return problems;
  });
  assert.deepEqual(report, [], label);
}

test('a browser gets the page, its policy and its stylesheet', async () => {
  const { page, response, problems } = await open(browser, '/github');
  const headers = response.headers();
  assert.equal(headers['content-type'], 'text/html; charset=utf-8');
  assert.match(headers['content-security-policy'], /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+='; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
  // Chromium asked for HTML first, as browsers do.
  assert.match(await response.request().headerValue('accept'), /^text\/html,/);
  assert.equal(await page.title(), 'github', 'the title is the document\'s name');
  // The stylesheet applied: the policy's hash is the stylesheet's.
  assert.equal(await page.$eval('main .scroll', (e) => getComputedStyle(e).overflowX), 'auto');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the github dataset is one table of its 100 repositories', async () => {
  const { page, problems } = await open(browser, '/github');
  const repos = values.github.repositories;
  const columns = [...new Set(repos.flatMap((r) => Object.keys(r)))];
  assert.deepEqual(await page.$$eval('main h2', (hs) => hs.map((h) => h.textContent)), ['repositories']);
  assert.equal(await page.locator('main table').count(), 1);
  assert.deepEqual(await page.$$eval('main thead th', (ths) => ths.map((th) => th.textContent)), columns);
  const rows = await page.$$eval('main tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  assert.equal(rows.length, repos.length);
  rows.forEach((row, i) => assert.deepEqual(row, columns.map((c) => (repos[i][c] === null ? '' : String(repos[i][c]))), `row ${i}`));
  // Numbers are right-aligned, words never wrap inside a cell.
  assert.equal(await page.$eval('main td.num', (td) => getComputedStyle(td).textAlign), 'right');
  await checkOnlyOwnMarkup(page, 'github');
  assert.deepEqual(problems, []);
  await page.close();
});

test('every page has the layout of the markdown an agent gets', async () => {
  for (const name of DOCUMENTS) {
    const { page, problems } = await open(browser, `/${name}`);
    const markdown = await (await page.request.get(`${base}/${name}?format=md`)).text();
    assert.deepEqual(await pageBlocks(page), markdownBlocks(markdown), name);
    const texts = new Set(await page.$$eval('main *', (es) => es.map((e) => e.textContent)));
    for (const s of strings(values[name])) assert.ok(texts.has(s), `${name}: no element holds exactly ${JSON.stringify(s)}`);
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('the alternates link to each format and show its real size', async () => {
  const { page, problems } = await open(browser, '/github');
  const rows = await page.$$eval('header nav tbody tr', (trs) =>
    trs.map((tr) => ({
      href: tr.querySelector('a').getAttribute('href'),
      type: tr.cells[1].textContent,
      bytes: Number(tr.cells[2].querySelector('data').value),
      tokens: Number(tr.cells[3].querySelector('data').value),
      best: tr.cells[3].classList.contains('best'),
    })),
  );
  assert.deepEqual(rows.map((r) => r.href), ['?format=json', '?format=md', '?format=mcp']);
  for (const row of rows) {
    const body = await (await page.request.get(`${base}/github${row.href}`)).body();
    assert.equal(row.bytes, body.length, row.href);
    assert.ok(Number.isInteger(row.tokens) && row.tokens > 0, row.href);
  }
  assert.deepEqual(rows.filter((r) => r.best).map((r) => r.href), ['?format=md']);
  // Following a link gives the agent's format of the same resource.
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/github?format=md')),
    page.click('header nav a[href="?format=md"]'),
  ]);
  assert.equal(response.headers()['content-type'], 'text/markdown; charset=utf-8; variant=GFM');
  assert.equal(new URL(page.url()).pathname, '/github');
  assert.deepEqual(problems, []);
  await page.close();
});

test('hostile strings are text, with the policy and without it', async () => {
  // A context that ignores the policy: the escaping must hold by itself.
  const relaxed = await chrome.newContext({ bypassCSP: true });
  for (const [label, context] of [['with the policy', browser], ['escaping alone', relaxed]]) {
    const { page, problems } = await open(context, '/hostile');
    assert.equal(await page.title(), 'hostile', label);
    assert.equal(await page.$$eval('script, iframe, img, svg, math, object, embed, form, input, base, template', (es) => es.length), 0, label);
    await checkOnlyOwnMarkup(page, `hostile, ${label}`);
    const texts = new Set(await page.$$eval('main *', (es) => es.map((e) => e.textContent)));
    for (const s of strings(values.hostile)) assert.ok(texts.has(s), `${label}: no element holds exactly ${JSON.stringify(s)}`);
    // Hovering and focusing what a handler attribute would have used.
    await page.hover('main table');
    await page.keyboard.press('Tab');
    assert.equal(await page.title(), 'hostile', label);
    assert.deepEqual(problems, [], label);
    await page.close();
  }
  await relaxed.close();
});

test('narrow screens scroll the table, not the page; dark mode has its colours', async () => {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/github`);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    box: document.querySelector('main .scroll').clientWidth,
    table: document.querySelector('main .scroll').scrollWidth,
  }));
  assert.ok(widths.page <= widths.viewport, `the page is ${widths.page}px wide in ${widths.viewport}px`);
  assert.ok(widths.table > widths.box, 'the table scrolls in its box');
  const background = async (scheme) => {
    await page.emulateMedia({ colorScheme: scheme });
    return page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  };
  assert.equal(await background('light'), 'rgb(255, 255, 255)');
  assert.equal(await background('dark'), 'rgb(13, 17, 23)');
  await page.close();
});

test('screenshots for a person to look at', async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const [name, colorScheme] of [['github', 'light'], ['nested-config', 'dark'], ['hostile', 'light']]) {
    const { page } = await open(browser, `/${name}`, { colorScheme });
    const path = join(ARTIFACTS, `${name}-${colorScheme}.png`);
    await page.screenshot({ path });
    assert.ok(readFileSync(path).length > 10000, path);
    await page.close();
  }
  console.log(`screenshots in ${ARTIFACTS}`);
});
