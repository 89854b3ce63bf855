// `node scripts/render-favicon.mjs`: renders public/favicon.svg (the icon's source) into public/favicon-32.png and
// public/favicon-64.png, the icons index.html names, with Chromium (CHROME_PATH, default /usr/bin/chromium). Run it
// after changing the SVG and commit the PNGs: an SVG icon would be a document of its own on the page's main thread.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const svg = readFileSync(here('../public/favicon.svg'), 'utf8');
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu'],
});
try {
  for (const size of [32, 64]) {
    const page = await browser.newPage();
    await page.setViewport({ width: size, height: size });
    await page.setContent(
      `<body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body>`,
    );
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    writeFileSync(here(`../public/favicon-${size}.png`), png);
    console.info(`public/favicon-${size}.png: ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
