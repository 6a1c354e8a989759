import type { AppRuntime } from "../../controllers/runtime.js";

/**
 * Type-level half of the seam, checked by `npm run typecheck` (never called): what components get
 * reaches no AgentSession or SessionManager, and the session view changes nothing.
 */
export function componentsCannotWriteTheSession(runtime: AppRuntime): void {
	// @ts-expect-error components get no AgentSession
	void runtime.session;
	// @ts-expect-error the session view has no writes
	void runtime.view.appendLabelChange;
	// @ts-expect-error nor a way back to the manager
	void runtime.view.sessionManager;
	const root = runtime.view.getTree()[0];
	if (!root) return;
	// @ts-expect-error the tree a screen reads is read-only
	root.children.push(root);
	// @ts-expect-error so are its entries
	root.id = "changed";
}
