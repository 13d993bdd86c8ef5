import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` is used: migrations are committed and applied by the app at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./drizzle",
});
