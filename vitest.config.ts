import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/src/**/*.test.ts", "bench/**/*.test.ts", "gateway/conformance/*.test.ts", "hack/images/*.test.ts"],
    exclude: ["**/node_modules/**", ".tools/**"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Two cores: the API-server and database suites are heavy; run files two at a time.
    maxWorkers: 2,
    // A run dir for components' logs and the secrets the run made; every log scanned for them at the end.
    globalSetup: ["reliability/src/secrets/global-setup.ts"],
  },
});
