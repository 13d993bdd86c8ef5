// The references: the least a Node HTTP server can do, on a free port it prints. Without an argument it
// answers a static string; with a JSON file of {path: {headers, body (base64)}} it answers each path
// with those exact bytes (a route's own answer, compressed as it was sent), "ok" elsewhere.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

/** @type {Map<string, {headers: string[], body: Buffer}>} */
const answers = new Map();
if (process.argv[2]) {
  const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
  for (const [path, { headers, body }] of Object.entries(spec)) {
    const bytes = Buffer.from(body, "base64");
    answers.set(path, { headers: [...headers, "Content-Length", String(bytes.length)], body: bytes });
  }
}

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (answer) {
    res.writeHead(200, answer.headers);
    res.end(answer.body);
    return;
  }
  res.setHeader("Content-Type", "text/plain");
  res.end("ok");
});
server.listen(0, "127.0.0.1", () => {
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
