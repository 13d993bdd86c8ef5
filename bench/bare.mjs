// The reference: the least a Node HTTP server can do (a static string), on a free port it prints.
import { createServer } from "node:http";

const server = createServer((_req, res) => {
  res.setHeader("Content-Type", "text/plain");
  res.end("ok");
});
server.listen(0, "127.0.0.1", () => {
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
