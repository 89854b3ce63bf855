// Start-up time: from spawning the server to its first 200 from /api/health, on a fresh data directory
// (migrations and demo data, whose passwords are hashed at OWASP cost) and on a second start of the same
// directory. Compares the server compiled from TypeScript at run time (tsx), the built bundle
// (dist-server/start.mjs), what `npm start` runs (scripts/start.mjs: freshness checks, then the bundle) and a
// bare Hono app as the floor. Then times the contract's share: importing it and loadContract(), built.
//
//   npm run build && node scripts/bench-startup.mjs [runs=5]
//
// A benchmark, not a test: the figures depend on the machine and on what else runs on it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleServer, ROOT } from './build-server.mjs';

const runs = Number(process.argv[2] ?? 5);
const BARE = `
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
const app = new Hono();
app.get('/api/health', (c) => c.json({ success: true, message: 'ok' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
`;

const variants = [
  { name: 'bare Hono app (floor)', args: ['--input-type=module', '-e', BARE], needs: null },
  { name: 'TypeScript at run time (tsx)', args: ['--import', 'tsx', 'server/cli/start.ts'], needs: null },
  { name: 'built bundle (dist-server)', args: ['dist-server/start.mjs'], needs: 'dist-server/start.mjs' },
  { name: 'npm start (scripts/start.mjs)', args: ['scripts/start.mjs'], needs: 'scripts/start.mjs', warmUp: true },
];

const freePort = () =>
  new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });

const healthy = (port) =>
  new Promise((done) => {
    const req = get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.setTimeout(1000, () => req.destroy());
  });

/**
 * Milliseconds from spawn to a healthy /api/health, and whether the process built something first (its
 * output says "Building"); the process is stopped before this resolves.
 */
async function timeStart(args, dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STATIC_DIR: resolve(ROOT, 'dist'),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
    },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  const exited = new Promise((done) => child.once('exit', done));
  let ms = null;
  while (ms === null) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    if (performance.now() - started > 120_000) throw new Error(`${args.join(' ')} not healthy after 120 s`);
    if (await healthy(port)) ms = performance.now() - started;
    else await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
  return { ms, rebuilt: stdout.includes('Building') };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) =>
  `median ${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})`;

console.info(`Start-up to a healthy /api/health, ${runs} runs each, interleaved (node ${process.version})`);
console.info(
  `  load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${availableParallelism()} CPUs`,
);
const ready = variants.filter((v) => {
  if (!v.needs || existsSync(join(ROOT, v.needs))) return true;
  console.info(`  ${v.name}: skipped, no ${v.needs} (npm run build)`);
  return false;
});
// npm start builds what is stale first: let it do so before anything is timed
for (const v of ready.filter((r) => r.warmUp)) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-start-'));
  await timeStart(v.args, dataDir).finally(() => rmSync(dataDir, { recursive: true, force: true }));
}
const times = new Map(ready.map((v) => [v, { fresh: [], second: [], rebuilt: 0 }]));
for (let i = 0; i < runs; i++) {
  // one round of every variant at a time, so that a busy moment of the machine does not land on one only
  for (const v of ready) {
    const t = times.get(v);
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-start-'));
    try {
      const fresh = await timeStart(v.args, dataDir);
      const second = await timeStart(v.args, dataDir);
      if (fresh.rebuilt || second.rebuilt) t.rebuilt++;
      else {
        t.fresh.push(fresh.ms);
        t.second.push(second.ms);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
for (const [v, t] of times) {
  const dropped = t.rebuilt ? ` (${t.rebuilt} runs left out: sources changed meanwhile, so it rebuilt)` : '';
  if (t.fresh.length === 0) console.info(`  ${v.name}: every run rebuilt${dropped}`);
  else console.info(`  ${v.name}${dropped}\n    fresh data dir: ${fmt(t.fresh)}\n    second start:   ${fmt(t.second)}`);
}
console.info(
  `  load average after the starts: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// The contract's share of a start: a bundle of server/contract/contract.ts alone, imported and loaded in a
// fresh process (module loading, YAML parsing and whatever loadContract() compiles up front).
const probeDir = join(ROOT, '.bench', 'startup');
mkdirSync(probeDir, { recursive: true });
const probeModule = await bundleServer({
  entry: join(ROOT, 'server/contract/contract.ts'),
  outfile: join(probeDir, 'contract.mjs'),
});
const probe = join(probeDir, 'probe.mjs');
writeFileSync(
  probe,
  `const t0 = performance.now();
const { loadContract } = await import(${JSON.stringify(probeModule)});
const t1 = performance.now();
const contract = loadContract();
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, loadMs: t2 - t1, operations: contract.operations.length }));
`,
);
// how much of loadContract() is reading the YAML, in a process of its own (the same module cold)
const yamlProbe = join(probeDir, 'probe-yaml.mjs');
writeFileSync(
  yamlProbe,
  `import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
const text = readFileSync(${JSON.stringify(join(ROOT, 'openapi/portal.yaml'))}, 'utf8');
const t0 = performance.now();
const doc = parse(text);
const t1 = performance.now();
JSON.parse(JSON.stringify(doc));
const json = JSON.stringify(doc);
const t2 = performance.now();
JSON.parse(json);
const t3 = performance.now();
console.log(JSON.stringify({ yamlMs: t1 - t0, jsonMs: t3 - t2 }));
`,
);
const runProbe = (file) =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.once('exit', (code) => (code === 0 ? done(JSON.parse(text)) : fail(new Error(`${file} exited ${code}`))));
  });
const imports = [];
const loads = [];
const yamls = [];
const jsons = [];
let operations = 0;
for (let i = 0; i < runs; i++) {
  const out = await runProbe(probe);
  imports.push(out.importMs);
  loads.push(out.loadMs);
  operations = out.operations;
  const y = await runProbe(yamlProbe);
  yamls.push(y.yamlMs);
  jsons.push(y.jsonMs);
}
console.info(
  `  contract (${operations} operations), built, in a fresh process\n` +
    `    import (ajv, yaml, module): ${fmt(imports)}\n` +
    `    loadContract():             ${fmt(loads)}\n` +
    `      of which parsing portal.yaml, about: ${fmt(yamls)} (the same document as JSON: ${fmt(jsons)})`,
);
console.info(
  `  load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
