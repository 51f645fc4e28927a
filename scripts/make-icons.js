// Renders web/icon.svg into the PNG icons the app's manifest names (web/icons/), with the
// machine's headless Chromium: no image library is needed, and the PNGs match the SVG the pages
// show. Rerun after changing web/icon.svg, and commit the PNGs:
//
//   bash scripts/test.d/web-e2e.sh   # once, to install playwright-core (or npm i playwright-core@1)
//   NODE_PATH=${TMPDIR:-/tmp}/oware-e2e-node/node_modules node scripts/make-icons.js
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const root = path.join(__dirname, '..');
const svg = fs.readFileSync(path.join(root, 'web/icon.svg'), 'utf8');
const out = path.join(root, 'web/icons');
// The page's background (style.css's --bg): a maskable icon must fill its whole square, since
// the launcher cuts its own shape out of it.
const BACKGROUND = '#f6f1e7';

// `size`: the square's side; `scale`: the part of it the drawing takes; `fill`: the background
// (none: transparent).
const ICONS = [
  { file: 'icon-192.png', size: 192, scale: 1, fill: null },
  { file: 'icon-512.png', size: 512, scale: 1, fill: null },
  // The maskable safe zone is the centred circle of 40% of the side in radius; the board's corners
  // lie 35/64 of the drawing's side from its centre, so at 70% of the side they stay inside it.
  { file: 'icon-maskable-512.png', size: 512, scale: 0.7, fill: BACKGROUND },
];

(async () => {
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    const side = Math.round(icon.size * icon.scale);
    const inner = svg.replace('<svg ', `<svg width="${side}" height="${side}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;width:${icon.size}px;height:${icon.size}px;display:flex;align-items:center;justify-content:center;background:${icon.fill || 'transparent'}">${inner}</body></html>`);
    await page.screenshot({ path: path.join(out, icon.file), omitBackground: !icon.fill, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    await page.close();
    console.log('wrote web/icons/' + icon.file);
  }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
