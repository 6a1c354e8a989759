import { Box, Text, useInput } from "ink";
import { useCallback, useState } from "react";
import { matchKey } from "../controllers/keymap.js";
import { safeLine, safeText } from "../source/render/safe-text.js";
import { StaticAnchor } from "./static-anchor.js";
import { useInputReady } from "./use-input-ready.js";

/** Props of ConfirmScreen. */
export interface ConfirmScreenProps {
	readonly title: string;
	readonly details: readonly string[];
	readonly onConfirm: () => void;
	readonly onCancel: () => void;
}

/** Asks before an action leaves the machine: Enter / y confirms, v shows what was found, Esc / n cancels. */
export function ConfirmScreen({ title, details, onConfirm, onCancel }: ConfirmScreenProps) {
	const [showDetails, setShowDetails] = useState(false);
	useInput(
		useCallback(
			(input, key) => {
				const action = matchKey(input, key);
				if (action === "submit" || input === "y") onConfirm();
				else if (action === "cancel" || input === "n") onCancel();
				else if (input === "v") setShowDetails((v) => !v);
			},
			[onConfirm, onCancel],
		),
	);
	const ready = useInputReady();
	if (!ready) return <StaticAnchor />;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
			<StaticAnchor />
			<Text color="yellow">{safeText(title)}</Text>
			{showDetails ? details.map((line) => <Text key={line}>{safeLine(line)}</Text>) : null}
			<Text dimColor>Enter/y share · v {showDetails ? "hide" : "view"} what is redacted · Esc/n cancel</Text>
		</Box>
	);
}
