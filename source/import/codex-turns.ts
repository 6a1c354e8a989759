import type { PlanBody } from "./import-plan.js";

/*
 * The user turns of a Codex rollout, as Codex's own resume counts them
 * (`reconstruct_history_from_rollout` and `ContextManager::drop_last_n_user_turns` in
 * openai/codex): a turn starts at a user message that is not injected context. A
 * `thread_rolled_back {num_turns}` event drops the last turns, with the context updates Codex wrote
 * just before them (items before the first turn are kept); in the imported tree the turns that
 * follow hang from where the dropped ones started, so the dropped ones stay on a branch of their
 * own. A `user_message` event repeats the prompt of its turn for the UI: one with no prompt
 * before it in its turn has no equivalent in the history and is kept as a record.
 */

/** Where the imported tree stands in the rollout's user turns. */
export class CodexTurns {
	/** For each user turn still in the history, the key its first item hangs from. */
	#starts: (string | null)[] = [];
	/** The last item that is a message of the conversation (not injected context, not a record). */
	#conversationTip: string | null = null;
	/** Prompts of the current turn whose `user_message` event has not come yet. */
	#unechoed = 0;

	/** Notes an item added after `parent` (the tip before it). */
	added(key: string, parent: string | null, body: PlanBody): void {
		if (body.kind === "compaction") {
			// Codex's history is the compaction's from here: a rollback cannot reach behind it.
			this.#starts = [];
			this.#conversationTip = key;
			return;
		}
		if (body.kind !== "message") return;
		if (body.message.role === "user") {
			this.#starts.push(this.#starts.length === 0 ? parent : this.#conversationTip);
			this.#unechoed++;
		}
		this.#conversationTip = key;
	}

	/** A `task_started` event: a new turn, whose prompt comes next. */
	turnStarted(): void {
		this.#unechoed = 0;
	}

	/** Whether a `user_message` event repeats a prompt already in the history (else it is kept). */
	echo(): boolean {
		if (this.#unechoed === 0) return false;
		this.#unechoed--;
		return true;
	}

	/** Drops the last `turns` user turns; returns the key the next items hang from, or undefined when nothing is dropped. */
	rollback(turns: number): string | null | undefined {
		if (!(turns > 0) || this.#starts.length === 0) return undefined;
		const keep = Math.max(0, this.#starts.length - turns);
		const tip = this.#starts[keep]!;
		this.#starts.length = keep;
		this.#conversationTip = tip;
		this.#unechoed = 0;
		return tip;
	}
}
