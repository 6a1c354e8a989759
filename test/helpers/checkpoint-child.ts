// A process that takes checkpoints in a loop until it is killed (test/checkpoints/shadow-repo.test.ts):
// argv: <gitDir> <project>. Each round rewrites a file and snapshots; prints "tick <n>" after each.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ShadowRepo } from "../../source/checkpoints/shadow-repo.js";

const [gitDir, project] = process.argv.slice(2);
if (!gitDir || !project) throw new Error("usage: checkpoint-child <gitDir> <project>");
const repo = await ShadowRepo.open(gitDir, project);
for (let round = 0; ; round++) {
	writeFileSync(join(project, "churn.txt"), `round ${round}\n`);
	await repo.snapshot("killed-session", `round ${round}`);
	process.stdout.write(`tick ${round}\n`);
}
