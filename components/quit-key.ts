import { createContext } from "react";

/**
 * What Ctrl+C does on the screen below (quit the app), handed down so that a screen's one input
 * handler takes it too: no second, app-wide handler listens beside it. Unset on the chat, whose
 * editor gives Ctrl+C its own meaning (clear the line, then quit).
 */
export const QuitKeyContext = createContext<(() => void) | undefined>(undefined);
