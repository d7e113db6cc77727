/**
 * The V8 old-generation limit the gateway runs with, in MB: `npm start`, `npm run start:gateway`,
 * the container's entrypoint (GATEWAY_MAX_OLD_SPACE_MB, default this) and every test or bench
 * that spawns a built gateway, so they measure the process as it is deployed.
 *
 * Why a limit at all (ADR 0039): V8 sizes its collection thresholds from the heap limit, which by
 * default follows the machine's memory (about 4 GB of old generation on a 24 GB machine). A CSV
 * export of 100k orders then let dead row objects pile up in the old generation, ~156 MB of RSS
 * growth before a full collection; at 512 MB V8 collects them as it goes (~31 MB). The gateway's
 * live heap stays well under 100 MB, so 512 leaves room for load.
 */
export const GATEWAY_MAX_OLD_SPACE_MB = 512;

/** The node arguments a spawned gateway takes ahead of its entry point. */
export const GATEWAY_NODE_ARGS: readonly string[] = [`--max-old-space-size=${GATEWAY_MAX_OLD_SPACE_MB}`];
