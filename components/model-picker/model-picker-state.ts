import type { ModelChoice } from "../../source/commands/types.js";
import {
	type FilterListRules,
	type FilterListState,
	filterListReducer,
	initialFilterList,
} from "../list/filter-list.js";

/** Models whose ref or name holds every word of the filter, in the registry's order. */
const MODEL_RULES: FilterListRules<ModelChoice> = {
	match: (models, filter) => {
		const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
		return models.filter((m) => {
			const text = `${m.ref} ${m.name}`.toLowerCase();
			return words.every((word) => text.includes(word));
		});
	},
	keyOf: (model) => model.ref,
};

/** The picker's pure reducer: a filter list of models. */
export const modelPickerReducer = filterListReducer<ModelChoice, FilterListState<ModelChoice>>(MODEL_RULES);

/** The picker as it opens: every model listed, the current one selected. */
export function initialModelPickerState(
	models: readonly ModelChoice[],
	current: string,
	rows: number,
): FilterListState<ModelChoice> {
	return initialFilterList(
		MODEL_RULES,
		models,
		rows,
		models.findIndex((m) => m.ref === current),
	);
}
