/**
 * Vite's configuration of the web UI: the build (src/vite-build.ts loads it) and the dev server,
 * `npm run dev --workspace @atrium/ui`, which serves the app with hot reload and forwards /api to
 * a running control plane (ATRIUM_CONTROL_PLANE_URL, `atrium run`'s by default).
 */
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { "/api": process.env.ATRIUM_CONTROL_PLANE_URL || "http://127.0.0.1:5555" },
  },
});
