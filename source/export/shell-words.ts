const WHITESPACE = /\s/;

/**
 * Splits command arguments like a POSIX shell: whitespace separates words, '…' is literal, "…" keeps
 * spaces and honours \" and \\, and a backslash escapes the next character. Throws on an open quote.
 */
export function parseShellWords(text: string): string[] {
	const words: string[] = [];
	let word = "";
	// Tracks a word that has started even if it is empty so far: `""` is a real (empty) argument.
	let inWord = false;
	let quote: "'" | '"' | undefined;

	for (let i = 0; i < text.length; i++) {
		const char = text[i]!;
		if (quote === "'") {
			if (char === "'") quote = undefined;
			else word += char;
			continue;
		}
		if (quote === '"') {
			if (char === '"') quote = undefined;
			else if (char === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) word += text[++i];
			else word += char;
			continue;
		}
		if (char === "'" || char === '"') {
			quote = char;
			inWord = true;
		} else if (char === "\\") {
			// Only whitespace, quotes and backslashes are escaped, so an unquoted Windows path such as
			// C:\Users\me\out.html survives intact instead of losing its separators as POSIX would.
			const next = text[i + 1];
			if (next !== undefined && (WHITESPACE.test(next) || next === "'" || next === '"' || next === "\\")) {
				word += next;
				i++;
			} else {
				word += char;
			}
			inWord = true;
		} else if (WHITESPACE.test(char)) {
			if (inWord) words.push(word);
			word = "";
			inWord = false;
		} else {
			word += char;
			inWord = true;
		}
	}
	if (quote) throw new Error(`Unterminated quote in: ${text}`);
	if (inWord) words.push(word);
	return words;
}
