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
