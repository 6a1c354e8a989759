/** "1.2 of 3.4 GB", "120 of 640 MB". */
export function describeProgress(read: number, total: number): string {
	const gb = total >= 1e9;
	const unit = gb ? 1e9 : 1e6;
	const digits = gb ? 1 : 0;
	return `${(read / unit).toFixed(digits)} of ${(total / unit).toFixed(digits)} ${gb ? "GB" : "MB"}`;
}
