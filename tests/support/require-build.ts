import { existsSync } from "node:fs";

/** Integration tests run the real built server; `npm test` builds first. */
export default function requireBuild() {
  if (!existsSync("build/server/index.js")) {
    throw new Error(
      "Integration tests need the production build: run `npm run build` first (npm test does).",
    );
  }
}
