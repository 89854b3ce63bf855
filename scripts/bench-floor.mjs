/**
 * npm run bench:floor: what a p99 target at 50 clients asks of one Node process on this machine. A bare
 * node:http server whose every answer costs the same CPU (a busy loop of --cost ms, an answer of --size bytes),
 * in one process or in --workers processes (node:cluster), driven by autocannon like the other benchmarks.
 * At saturation the latency's mean is 50 / (answers a second), and its p99 about twice the mean (requests
 * are read and answered in batches, a turn of the event loop each), so p99 < 50 ms needs about 2,000 answers a
 * second: 0.4 ms of CPU each in one process.
 */
import cluster from 'node:cluster';
import http from 'node:http';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const cost = arg('cost', 0.8);
const size = arg('size', 36_000);
const workers = arg('workers', 1);
const port = arg('port', 4899);

if (cluster.isPrimary && process.env.BENCH_FLOOR_SERVE !== '1') {
  cluster.setupPrimary({ env: { ...process.env, BENCH_FLOOR_SERVE: '1' } });
  const forked = Array.from({ length: workers }, () => cluster.fork());
  await Promise.all(forked.map((w) => new Promise((ready) => w.once('listening', ready))));
  const autocannon = (await import('autocannon')).default;
  const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 50, duration: arg('duration', 8) });
  console.info(
    `${workers} process(es), ${cost} ms CPU and ${size} bytes an answer, 50 clients: ${Math.round(result.requests.average)} req/s, ` +
      `mean ${result.latency.average.toFixed(1)} ms, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  for (const w of forked) w.kill();
} else {
  const body = JSON.stringify({ data: 'x'.repeat(Math.max(0, size - 12)) });
  http
    .createServer((_req, res) => {
      const until = performance.now() + cost;
      while (performance.now() < until) {}
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    })
    .listen(port, '127.0.0.1');
}
