/** "just now", "5 min ago", "3 h ago", "2 d ago", or a date for anything older than 30 days. */
export function formatRelativeTime(date: Date, now: Date = new Date()): string {
	const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
	if (seconds < 60) return "just now";
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `${minutes} min ago`;
	const hours = Math.round(minutes / 60);
	if (hours < 24) return `${hours} h ago`;
	const days = Math.round(hours / 24);
	if (days <= 30) return `${days} d ago`;
	return date.toISOString().slice(0, 10);
}

/** Cuts a string to `width` characters with an ellipsis. */
export function clip(text: string, width: number): string {
	return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(rows: readonly (readonly string[])[]): string {
	const widths: number[] = [];
	for (const row of rows) {
		for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i] ?? 0, row[i]!.length);
	}
	return rows
		.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
		.join("\n");
}
