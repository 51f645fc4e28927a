// What the browser suites share: Chromium's flags, checks, and the steps of a friend game.
'use strict';

// Debian's Chromium, headless, quiet: nothing fetched from elsewhere while the tests run.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
}

const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply || -1));

async function waitPly(page, n) {
  await page.waitForFunction((n) => Number(document.body.dataset.ply) === n, n, { timeout: 15000 });
}

// An invited friend opens the link: the page asks their name once, then seats them.
async function acceptInvite(page, link, name) {
  await page.goto(link);
  await page.waitForSelector('#invited-name');
  await page.fill('#invited-name', name);
  await page.click('#invited-play');
}

module.exports = { ARGS, check, ply, waitPly, acceptInvite };
