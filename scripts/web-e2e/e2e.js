// Browser tests of `oware serve`, run by scripts/test.d/web-e2e.sh.
'use strict';

const { chromium } = require('playwright-core');

const BASE = process.env.E2E_URL;
const OUT = process.env.E2E_OUT || '/tmp';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
}

async function newPage(browser, opts) {
  const context = await browser.newContext(Object.assign({ viewport: { width: 1100, height: 800 }, locale: 'en-US' }, opts || {}));
  await context.addInitScript(() => localStorage.setItem('oware.animation', 'fast'));
  const page = await context.newPage();
  page.on('pageerror', (e) => { console.error('page error:', e.message); page.errors = (page.errors || 0) + 1; });
  return { context, page };
}

const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply || -1));

async function waitPly(page, n) {
  await page.waitForFunction((n) => Number(document.body.dataset.ply) === n, n, { timeout: 15000 });
}

// Plays first legal houses (alternating mouse and keyboard) until the game ends.
async function gameAgainstComputer(browser) {
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/');
  await page.selectOption('#computer-form select[name=level]', '1');
  await page.selectOption('#computer-form select[name=side]', 'S');
  await page.click('#play-computer');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await page.waitForSelector('g.house.legal');
  let moves = 0;
  let retries = 0;
  let stale = 0;
  while (true) {
    await page.waitForFunction(() => document.body.dataset.over === '1' || document.querySelector('g.house.legal'), null, { timeout: 20000 });
    if (await page.evaluate(() => document.body.dataset.over === '1')) break;
    const before = await ply(page);
    // Read the house without waiting: the computer's reply may have redrawn the board (or ended the
    // game) since the wait above, and then the loop looks again instead of waiting for a house that
    // will not come.
    const letter = await page.evaluate(() => document.querySelector('g.house.legal')?.dataset.house);
    if (!letter) {
      stale++;
      check(stale < 100, 'the board settles after a reply');
      continue;
    }
    // The board can be redrawn between reading a legal house and acting on it (a state arriving
    // late): then the house is no longer offered and the move is tried again from the new board,
    // a bounded number of times.
    try {
      if (moves % 2 === 0) await page.click(`g.house.legal[data-house="${letter}"]`, { timeout: 5000 });
      else await page.keyboard.press(letter.toLowerCase());
      await page.waitForFunction((b) => Number(document.body.dataset.ply) > b, before, { timeout: 20000 });
    } catch (e) {
      retries++;
      check(retries < 5, 'a move offered on the board can be played: ' + e.message.split('\n')[0]);
      continue;
    }
    moves++;
    check(moves < 300, 'the game ends');
  }
  const status = await page.textContent('#status');
  check(/won|lost|Draw/.test(status), 'result shown: ' + status);
  const record = await (await page.request.get(page.url().replace('/game/', '/api/games/') + '/record')).text();
  check(record.includes('[Result'), 'record downloadable');
  console.log(`computer game: ${moves} moves of ours, "${status}"`);
  await page.screenshot({ path: OUT + '/game-over.png' });
  check(!page.errors, 'no script errors');
  await context.close();
}

// Two people in two browser contexts; North reloads in the middle and resumes; a third watches.
async function friendGame(browser) {
  const a = await newPage(browser);
  await a.page.goto(BASE + '/');
  await a.page.selectOption('#friend-form select[name=side]', 'S');
  await a.page.click('#play-friend');
  await a.page.waitForSelector('#share-link');
  const link = await a.page.inputValue('#share-link');
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  await b.page.goto(link);
  await b.page.waitForFunction(() => document.body.dataset.ply === '0');
  await a.page.waitForSelector('#share-link', { state: 'hidden' });
  await a.page.click('g.house.legal[data-house="F"]');
  await waitPly(b.page, 1);
  check((await b.page.textContent('#status')).includes('À vous'), 'North (in French) is to move');
  await b.page.reload();
  await waitPly(b.page, 1);
  await b.page.waitForSelector('g.house.legal');
  check((await b.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North resumes as North');
  // A browser that kept no storage still resumes: the server's HttpOnly seat cookie says who.
  check(!(await b.page.evaluate(() => document.cookie)).includes('oware_seat'), 'the seat cookie is HttpOnly');
  await b.page.evaluate(() => localStorage.clear());
  await b.page.reload();
  await waitPly(b.page, 1);
  await b.page.waitForSelector('g.house.legal');
  check((await b.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North resumes by cookie alone');
  // The private link to continue on another device resumes North in a fresh browser context.
  const resumeLink = await b.page.inputValue('#resume-link');
  check(/\?t=[0-9a-f]{32}$/.test(resumeLink), 'private resume link: ' + resumeLink);
  const other = await newPage(browser);
  await other.page.goto(resumeLink);
  await waitPly(other.page, 1);
  await other.page.waitForSelector('g.house.legal');
  check((await other.page.getAttribute('g.house.legal', 'data-house')).match(/[a-f]/), 'North on another device');
  await other.context.close();
  const watcher = await newPage(browser);
  await watcher.page.goto(link);
  await waitPly(watcher.page, 1);
  check((await watcher.page.textContent('#status')).includes('watching'), 'third visitor watches');
  check((await watcher.page.$$('g.house.legal')).length === 0, 'watcher cannot move');
  await b.page.keyboard.press('a');
  await waitPly(a.page, 2);
  await waitPly(watcher.page, 2);
  check((await a.page.textContent('#moves')).includes('1. F a'), 'move list in notation');
  await b.page.screenshot({ path: OUT + '/friend-phone.png' });
  console.log('friend game: two players, one reload, one watcher');
  for (const x of [a, b, watcher]) { check(!x.page.errors, 'no script errors'); await x.context.close(); }
}

async function pages(browser) {
  for (const [w, hgt, tag] of [[1200, 900, 'desktop'], [390, 844, 'phone']]) {
    for (const lang of ['ca', 'es', 'en', 'fr']) {
      const { context, page } = await newPage(browser, { viewport: { width: w, height: hgt }, locale: lang });
      for (const path of ['/', '/rules', '/analysis']) {
        await page.goto(BASE + path);
        if (path === '/analysis') {
          await page.fill('#analysis-text', '1. F f 2. E a 3. D b');
          await page.click('#analysis-load');
          await page.waitForFunction(() => document.querySelector('#evaluation').dataset.for === '7-6-6-1-1-2-1-0-9-7-6-2-0-0-S');
          const rows = await page.$$eval('#evaluation tr', (trs) => trs.slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)));
          check(rows.length === 6, 'a value for each of the 6 legal moves: ' + JSON.stringify(rows));
          check(rows.every((r) => /^[A-F]$/.test(r[0]) && r[2].startsWith(r[0])), 'each with its best line: ' + JSON.stringify(rows));
        }
        const name = (path.slice(1) || 'home') + '-' + lang + '-' + tag;
        await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
        check(await page.evaluate(() => document.documentElement.lang) === lang, 'language ' + lang);
      }
      check(!page.errors, 'no script errors');
      await context.close();
    }
  }
  // The language menu switches and remembers.
  const { context, page } = await newPage(browser);
  await page.goto(BASE + '/rules');
  await page.selectOption('#lang', 'ca');
  await page.waitForFunction(() => document.documentElement.lang === 'ca');
  check((await page.textContent('h1')).includes('aualé'), 'rules in Catalan');
  await context.close();
  console.log('pages: home, rules, analysis in 4 languages at 2 widths');
}

(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  let failed = false;
  for (const test of [friendGame, gameAgainstComputer, pages]) {
    try {
      await test(browser);
    } catch (e) {
      failed = true;
      console.error(`FAILED ${test.name}: ${e.stack || e}`);
      for (const ctx of browser.contexts()) {
        for (const [i, p] of ctx.pages().entries()) {
          await p.screenshot({ path: `${OUT}/failure-${test.name}-${i}.png` }).catch(() => {});
        }
        await ctx.close().catch(() => {});
      }
    }
  }
  await browser.close();
  if (failed) process.exit(1);
  console.log('web e2e: all passed');
})();
