import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the custom server and the
  // React Router build share one module graph (one DB client, one config).
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" }
    : { target: "es2022" },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  plugins: [tailwindcss(), reactRouter()],
}));
