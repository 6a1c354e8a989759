// A worker thread that reads, parses and builds new imported sessions while the main thread
// writes them: parsing a source and serialising its session is most of an import's time, and
// sources are independent, so N threads import about N times faster.
import { parentPort } from "node:worker_threads";
import { buildSource } from "./build-source.js";
import type { BuildRequest } from "./import-pool.js";

parentPort?.on("message", (request: BuildRequest) => {
	const { reply, transfer } = buildSource(request);
	parentPort?.postMessage(reply, transfer);
});
