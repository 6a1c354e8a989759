import { createContext } from "react";
import type { RowPainter } from "../../source/render/row-painter.js";

/** The painter the transcript's rows go to on a terminal; without one, Ink draws them as text. */
export const RowPainterContext = createContext<RowPainter | undefined>(undefined);
