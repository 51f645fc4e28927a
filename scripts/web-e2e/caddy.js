// A friend game through a real Caddy over HTTPS and WSS, run by scripts/test.d/caddy.sh: each
// player in a Chromium of its own, reaching Caddy from an address of its own.
'use strict';

const http = require('http');
const net = require('net');
const { chromium } = require('playwright-core');
const { ARGS, check, waitPly, acceptInvite } = require('./helpers');

const BASE = process.env.E2E_URL;
const OUT = process.env.E2E_OUT || '/tmp';
const CADDY_PORT = Number(new URL(BASE).port);
const ADDRESSES = process.env.E2E_ADDRESSES.split(' ');
const PER_ADDRESS = Number(process.env.E2E_SOCKETS_PER_ADDRESS);

// A forward proxy for one browser that opens its connections to Caddy (at CADDY) from
// `localAddress`. On the loopback every connection starts from 127.0.0.1 whatever address it goes
// to, like Caddy's own to the server; through this one, Caddy sees each browser at an address of
// its own and forwards that in X-Forwarded-For, as it would a person's.
function sourceProxy(localAddress) {
  return new Promise((resolve) => {
    const proxy = http.createServer((req, res) => { res.writeHead(405); res.end(); });
    proxy.on('connect', (req, client, head) => {
      if (req.url !== new URL(BASE).host) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = net.connect({ host: '127.0.0.1', port: CADDY_PORT, localAddress }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    proxy.listen(0, '127.0.0.1', () => resolve(proxy));
  });
}

// A browser that reaches the server through Caddy from `address`. Caddy's certificate is from its
// own CA, which this browser is told to accept.
async function browserAt(address) {
  const proxy = await sourceProxy(address);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ARGS,
    proxy: { server: 'http://127.0.0.1:' + proxy.address().port },
  });
  browser.on('disconnected', () => proxy.close());
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1000, height: 760 }, locale: 'en-US' });
  await context.addInitScript(() => localStorage.setItem('oware.animation', 'fast'));
  const page = await context.newPage();
  const seen = { responses: [], sockets: [], errors: [] };
  page.on('response', (r) => seen.responses.push(r));
  page.on('websocket', (ws) => seen.sockets.push(ws.url()));
  page.on('pageerror', (e) => seen.errors.push(e.message));
  return { browser, context, page, seen, address };
}

// Opens `n` more WebSockets to the page's game at once, from the page: how many the server took.
function openSockets(page, n) {
  return page.evaluate(async (n) => {
    const url = location.origin.replace(/^https:/, 'wss:') + '/api/games/' + location.pathname.split('/')[2] + '/ws';
    const sockets = Array.from({ length: n }, () => new WebSocket(url));
    const opened = await Promise.all(sockets.map((ws) => new Promise((resolve) => {
      ws.onopen = () => resolve(true);
      ws.onclose = () => resolve(false);
    })));
    for (const ws of sockets) ws.close();
    return opened.filter(Boolean).length;
  }, n);
}

async function friendGameThroughCaddy() {
  const [a, b] = [await browserAt(ADDRESSES[0]), await browserAt(ADDRESSES[1])];
  try {
    const home = await a.page.goto(BASE + '/');
    check(home.status() === 200, 'the home page over HTTPS through Caddy: ' + home.status());
    await a.page.fill('#player-name', 'Grandma Rosa');
    await a.page.selectOption('#friend-form select[name=side]', 'S');
    await a.page.click('#play-friend');
    await a.page.waitForSelector('#share-link');
    const link = await a.page.inputValue('#share-link');
    check(link.startsWith(BASE + '/game/'), `the invitation carries the public URL ${BASE}: ${link}`);
    check(!(await a.page.isVisible('#local-warning')), 'no warning that the link only works on this computer');
    await a.page.screenshot({ path: OUT + '/caddy-invite.png' });

    await acceptInvite(b.page, link, 'Léo');
    await waitPly(a.page, 0);
    await waitPly(b.page, 0);
    // Four moves, each seen by both players over their WSS connections.
    for (let n = 0; n < 4; n++) {
      const mover = n % 2 === 0 ? a : b;
      await mover.page.waitForSelector('g.house.legal');
      await mover.page.click('g.house.legal');
      await waitPly(a.page, n + 1);
      await waitPly(b.page, n + 1);
    }
    const moves = await a.page.textContent('#moves');
    check(moves === await b.page.textContent('#moves') && /^1\. \S+ \S+ 2\. \S+ \S+/.test(moves.trim()), 'both see the same four moves: ' + moves);
    await a.page.screenshot({ path: OUT + '/caddy-south.png' });
    await b.page.screenshot({ path: OUT + '/caddy-north.png' });

    for (const x of [a, b]) {
      check(x.seen.sockets.length > 0 && x.seen.sockets.every((u) => u.startsWith(`wss://${new URL(BASE).host}/api/games/`)), 'the game over WSS through Caddy: ' + x.seen.sockets);
      // Every answer of the server carries HSTS (those a service worker made up excepted).
      const ours = x.seen.responses.filter((r) => r.url().startsWith(BASE + '/') && !r.fromServiceWorker());
      check(ours.length > 5, 'responses seen: ' + ours.length);
      for (const r of ours) {
        const headers = await r.allHeaders();
        check(/max-age=\d+/.test(headers['strict-transport-security'] || ''), `HSTS on ${r.url()}: ${JSON.stringify(headers)}`);
      }
      // The seat cookie the server set, as it was sent and as the browser kept it.
      const setCookies = [];
      for (const r of ours) {
        const value = await r.headerValue('set-cookie');
        if (value && value.includes('oware_seat=')) setCookies.push(value);
      }
      check(setCookies.length > 0, `${x.address}: the seat cookie was set`);
      for (const c of setCookies) check(/;\s*Secure(;|$)/.test(c) && /;\s*HttpOnly/.test(c), 'a Secure, HttpOnly seat cookie: ' + c);
      const kept = (await x.context.cookies()).filter((c) => c.name === 'oware_seat');
      check(kept.length === 1 && kept[0].secure && kept[0].httpOnly, 'kept as Secure: ' + JSON.stringify(kept));
      check(x.seen.errors.length === 0, 'no script errors: ' + x.seen.errors);
    }

    // Each player's page holds one connection. The limit counts the address a request came from,
    // which through Caddy is the browser's (127.0.0.2, 127.0.0.3), not Caddy's own (127.0.0.1):
    // South may open all the rest of its share. Were both players counted as Caddy, North's
    // connection would take one of them.
    const taken = await openSockets(a.page, PER_ADDRESS);
    check(taken === PER_ADDRESS - 1, `South's address had ${PER_ADDRESS - 1} connections left of ${PER_ADDRESS}, took ${taken}`);
    check(await openSockets(b.page, PER_ADDRESS) === PER_ADDRESS - 1, 'and North likewise, on its own address');
    console.log(`caddy: a friend game over HTTPS and WSS through Caddy at ${BASE}; Secure seat cookie, HSTS, public invitation, per-browser limits`);
  } catch (e) {
    for (const x of [a, b]) await x.page.screenshot({ path: `${OUT}/failure-caddy-${x.address}.png` }).catch(() => {});
    throw e;
  } finally {
    await a.browser.close();
    await b.browser.close();
  }
}

friendGameThroughCaddy().catch((e) => {
  console.error('FAILED: ' + (e.stack || e));
  process.exit(1);
});
