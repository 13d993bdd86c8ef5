// One autocannon run, in its own process so the load generator does not share the server's CPU time
// slice or memory. Input: a JSON argument {url, connections, duration, headers}; output: one JSON line.
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon";

const { url, connections, duration, headers } = JSON.parse(process.argv[2] ?? "{}");
const result = await autocannon({ url, connections, duration, headers });
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
