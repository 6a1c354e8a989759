import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { beforeEach, describe, expect, it } from "vitest";
import { ShadowRepo } from "../../source/checkpoints/shadow-repo.js";
import { fileChanges, parseFileChanges } from "../../source/checkpoints/tree-diff.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fingerprint, userGit, writeTree } from "./project-fixture.js";

describe("the shadow repository", () => {
	const temp = useTempAgentDir();
	let project: string;
	let gitDir: string;

	beforeEach(() => {
		project = join(temp.root, "project");
		gitDir = join(temp.agentDir, "checkpoints", "p");
		mkdirSync(project, { recursive: true });
	});

	const paths = async (repo: ShadowRepo, commit: string) =>
		(await repo.read(["ls-tree", "-r", "--name-only", commit])).split("\n").filter(Boolean);

	it("commits a snapshot only when the files changed, and says which with +/- lines", async () => {
		writeTree(project, { "a.txt": "one\n", "src/b.ts": "x\ny\n" });
		const repo = await ShadowRepo.open(gitDir, project);
		const first = await repo.snapshot("s1", "first");
		expect(first.changed).toBe(true);
		expect(await repo.snapshot("s1", "again")).toMatchObject({ commit: first.commit, changed: false });
		writeTree(project, { "a.txt": "two\nthree\n" });
		const second = await repo.snapshot("s1", "second");
		expect(second.changed).toBe(true);
		expect(await fileChanges(repo, first.tree, second.tree)).toEqual([
			{ path: "a.txt", status: "modified", added: 2, removed: 1, binary: false },
		]);
		// Every snapshot stays reachable from the session's ref.
		expect(await repo.resolveCommit(repo.refOf("s1"))).toBe(second.commit);

		// Added, deleted and binary files, and names git would quote, in one diff-tree call.
		rmSync(join(project, "src", "b.ts"));
		writeTree(project, { ":odd\tname.txt": "a\nb\nc\n", "img.bin": "\u0000\u0001binary" });
		const third = await repo.snapshot("s1", "third");
		expect(await fileChanges(repo, second.tree, third.tree)).toEqual([
			{ path: ":odd\tname.txt", status: "added", added: 3, removed: 0, binary: false },
			{ path: "img.bin", status: "added", added: 0, removed: 0, binary: true },
			{ path: "src/b.ts", status: "deleted", added: 0, removed: 2, binary: false },
		]);
	});

	it("honours .gitignore (nested too) and .git/info/exclude, skips big files, and leaves the project's .git as it was", async () => {
		userGit(project, ["init", "-q"]);
		writeTree(project, {
			".gitignore": "*.log\n",
			"a.txt": "tracked\n",
			"deep/.gitignore": "secret.txt\n",
			"deep/secret.txt": "no\n",
			"deep/kept.txt": "yes\n",
			"debug.log": "no\n",
			"local.tmp": "no\n",
			"big.bin": Buffer.alloc(4096, 1),
		});
		writeFileSync(join(project, ".git", "info", "exclude"), "*.tmp\n");
		userGit(project, ["add", "a.txt", ".gitignore"]);
		userGit(project, ["commit", "-qm", "user commit"]);
		const before = fingerprint(join(project, ".git"));
		const repo = await ShadowRepo.open(gitDir, project, { maxFileBytes: 1024 });
		const snapshot = await repo.snapshot("s1", "first");
		expect(await paths(repo, snapshot.commit)).toEqual([".gitignore", "a.txt", "deep/.gitignore", "deep/kept.txt"]);
		expect(snapshot.skipped).toEqual([{ path: "big.bin", bytes: 4096 }]);
		writeTree(project, { "a.txt": "changed\n" });
		await repo.snapshot("s1", "second");
		expect(fingerprint(join(project, ".git"))).toEqual(before);
	});

	it("a file replaced by a folder, a deleted file and a diff in the same snapshot: the tree follows the disk", async () => {
		writeTree(project, { x: "file\n", "gone.txt": "bye\n", "kept.txt": "k\n" });
		const repo = await ShadowRepo.open(gitDir, project);
		const first = await repo.snapshot("s1", "first");
		rmSync(join(project, "x"));
		rmSync(join(project, "gone.txt"));
		writeTree(project, { "x/inner.txt": "inner\n" });
		const second = await repo.snapshot("s1", "second", { diffFrom: first.tree });
		expect(second.changed).toBe(true);
		expect(await paths(repo, second.commit)).toEqual(["kept.txt", "x/inner.txt"]);
		// The diff came from the same process as the snapshot, in fileChanges' form.
		const changes = await fileChanges(repo, first.tree, second.tree);
		expect(parseFileChanges(second.diff ?? "")).toEqual(changes);
		expect(changes.map((c) => [c.path, c.status])).toEqual([
			["gone.txt", "deleted"],
			["x", "deleted"],
			["x/inner.txt", "added"],
		]);
		// Nothing changed since: the same snapshot, and an empty diff from its own tree.
		expect(await repo.snapshot("s1", "third", { diffFrom: second.tree })).toMatchObject({
			commit: second.commit,
			changed: false,
			diff: "",
		});
	});

	it("a file that grows over the limit leaves the snapshot instead of keeping its old bytes", async () => {
		writeTree(project, { "grow.bin": "small" });
		const repo = await ShadowRepo.open(gitDir, project, { maxFileBytes: 1024 });
		expect(await paths(repo, (await repo.snapshot("s1", "small")).commit)).toEqual(["grow.bin"]);
		writeTree(project, { "grow.bin": Buffer.alloc(2048, 2) });
		const grown = await repo.snapshot("s1", "grown");
		expect(await paths(repo, grown.commit)).toEqual([]);
		expect(grown.skipped).toEqual([{ path: "grow.bin", bytes: 2048 }]);
	});

	it("the locks a kill leaves behind (index and ref) do not stop the next snapshot", async () => {
		writeTree(project, { "a.txt": "one\n" });
		const repo = await ShadowRepo.open(gitDir, project);
		await repo.snapshot("s1", "first");
		writeFileSync(join(gitDir, "xcsh-indexes", "s1.lock"), "");
		writeFileSync(join(gitDir, "refs", "xcsh", "sessions", "s1.lock"), "");
		writeTree(project, { "a.txt": "two\n" });
		const next = await repo.snapshot("s1", "after a kill");
		expect(next.changed).toBe(true);
		expect(await repo.read(["show", `${next.commit}:a.txt`])).toBe("two\n");
	});

	it("a process killed mid-checkpoint, again and again, leaves a store the next checkpoint uses", async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 2000; i++) files[`d${i % 40}/f${i}.txt`] = `file ${i}\n`;
		writeTree(project, files);
		for (let round = 0; round < 4; round++) {
			const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/checkpoint-child.ts", gitDir, project], {
				detached: true,
				stdio: ["ignore", "pipe", "inherit"],
			});
			const exited = new Promise((resolve) => child.on("exit", resolve));
			const lines = createInterface({ input: child.stdout! });
			// Kill at a different point each round: after 1, 2, 3, 4 finished checkpoints, while the next one runs.
			let ticks = 0;
			await new Promise<void>((resolve) =>
				lines.on("line", () => {
					if (++ticks === round + 1) resolve();
				}),
			);
			// The whole group, git children included: what a crash or a closed terminal does.
			process.kill(-child.pid!, "SIGKILL");
			await exited;
		}
		const repo = await ShadowRepo.open(gitDir, project);
		writeTree(project, { "after.txt": "fine\n" });
		const snapshot = await repo.snapshot("killed-session", "after the kills");
		expect(await repo.read(["show", `${snapshot.commit}:after.txt`])).toBe("fine\n");
		expect((await paths(repo, snapshot.commit)).length).toBe(2002);
		await expect(repo.read(["fsck", "--no-dangling"])).resolves.toBeDefined();
		expect(existsSync(join(gitDir, "HEAD"))).toBe(true);
	}, 120_000);
});
