import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BlobStore } from "../../source/session/blob-store.js";
import { EntryBodies } from "../../source/session/entry-bodies.js";
import { LazyEntry, SkeletonColumns } from "../../source/session/lazy-entry.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("EntryBodies", () => {
	it("reads a row's body once, whichever view of the row asks (views are made afresh)", () => {
		const dir = mkdtempSync(join(tmpdir(), "xcsh-bodies-"));
		dirs.push(dir);
		const file = join(dir, "s.jsonl");
		const line = JSON.stringify({ type: "custom", id: "a", parentId: null, timestamp: "t", customType: "x" });
		writeFileSync(file, `${line}\n`);
		const storage = new FileSessionStorage(new BlobStore(join(dir, "blobs")));
		let reads = 0;
		const bodies = new EntryBodies(
			file,
			(path) => {
				const inner = storage.openBodyFile(path);
				return {
					readSync: (position, length) => {
						reads++;
						return inner.readSync(position, length);
					},
					close: () => inner.close(),
				};
			},
			storage.blobs,
		);
		const columns = new SkeletonColumns();
		const row = columns.push("custom", "a", null, "t", 0, Buffer.byteLength(line), {});
		const first = bodies.read(new LazyEntry(columns, row));
		const again = bodies.read(new LazyEntry(columns, row));
		expect(again).toBe(first);
		expect(first.id).toBe("a");
		expect(reads).toBe(1);
		bodies.close();
	});
});
