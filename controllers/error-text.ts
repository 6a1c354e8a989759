/** What an error says, for a notice or a status line (anything thrown, not only `Error`s). */
export function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
