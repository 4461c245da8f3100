/** The web UI as the CLI and tests use it: its bundle, built on demand into the cache. */
export { ensureUiBundle, IMAGE_UI_DIR, type UiBundleDir, uiCacheDir, uiRoot, uiSourceHash } from "./bundle.ts";
