// Loaded with --import into a child whose peak memory a test asserts: writes it on exit.
import { writeFileSync } from "node:fs";

const target = process.env.XCSH_TEST_PEAK_RSS_FILE;
if (target) process.on("exit", () => writeFileSync(target, String(process.resourceUsage().maxRSS * 1024)));
